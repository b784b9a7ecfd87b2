import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chains, SAME_KEY_MANY_TIMES, type Judged } from '../support/expanding-documents.js';
import type { Judgement } from '../support/judge-documents.js';

/**
 * CONTRACT §18, bounded work per request: a document whose fragments spread each other many times
 * is judged in time linear in its size. The documents are judged in a child process
 * (support/judge-documents.ts, compiled by `npm test`) killed after 30 s, so that exponential work
 * fails this test instead of hanging the run. Before the fix the 24-level chain took 2.2 s and
 * every two more levels multiplied that by 4 (40 levels: about 4 days).
 */
const JUDGE = fileURLToPath(new URL('../../../dist/test/graphql/support/judge-documents.js', import.meta.url));
/** The contract's bound. The linear walk needs a few milliseconds of CPU for each of these. */
const CPU_BOUND_MS = 100;

function judgeInChild(documents: Judged[]): Judgement[] {
  const child = spawnSync(process.execPath, [JUDGE], { input: JSON.stringify(documents), encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 });
  if (child.error || child.status !== 0) throw new Error(`the judge did not finish (${child.signal ?? child.error?.message ?? `exit ${child.status}`}): ${child.stderr}`);
  return JSON.parse(child.stdout) as Judgement[];
}

describe('documents that expand exponentially are refused in linear time', () => {
  const documents = [
    ...chains([20, 24, 30, 40], ['spreads', 'fields', 'aliases', 'inline', 'nested', 'subscription']),
    { name: 'one key 1,200 times', transport: 'http', query: SAME_KEY_MANY_TIMES } as Judged,
  ];
  let judgements: Judgement[];
  beforeAll(() => {
    judgements = judgeInChild(documents);
  }, 40_000);

  it('still answers the standard introspection query (230 selections expanded, under the limit of 250)', () => {
    expect(judgements[0]).toMatchObject({ name: 'introspection', status: 200, code: null });
  });

  it.each(documents.map((document, i) => [document.name, i + 1] as const))('refuses %s with validation_error, within 100 ms of CPU', (name, index) => {
    const judged = judgements[index];
    expect(judged).toMatchObject({ name, code: 'validation_error', details: { limit: 'selections', maximum: 250 } });
    if (documents[index - 1].transport === 'http') expect(judged.status).toBe(400);
    expect(judged.cpuMs).toBeLessThan(CPU_BOUND_MS);
  });

  it('sends the 24-level chain in under a kilobyte', () => {
    expect(documents.find((document) => document.name === 'spreads × 24')!.query.length).toBeLessThan(1_024);
  });
});
