import { readFileSync } from 'node:fs';
import { createTestDatabase } from '../support/database.js';
import { Api, issueKey } from './support/http.js';
import { PROCESS_ADMIN_TOKEN, startService, type ServiceProcess } from './support/service-process.js';

/**
 * CONTRACT §18, "Memory is bounded in bytes" (issue 36): graphql-js links every token of a text,
 * comments included, into the parsed document, so a document padded with comment lines kept MBs
 * in caches that counted it as a few hundred bytes; 100 such requests added 333 MiB that stayed.
 * Here a service process of its own (its RSS is the instance's) is sent distinct documents, each
 * padded with `#` lines to the 100 KiB body limit, from a free-plan key.
 */
const LIMIT_MIB = 256;
const BODY_LIMIT = 100 * 1024;

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** A distinct operation, then `#` lines up to the body limit (`#\n` is 3 bytes of JSON): one token a line. */
function padded(i: number): string {
  const operation = `query Padded${i} { projects(first: 1) { edges { node { id name } } } }\n`;
  return operation + '#\n'.repeat(Math.floor((BODY_LIMIT - 64 - operation.length) / 3));
}

describe('distinct 100 KiB comment-padded documents (CONTRACT §18)', () => {
  let service: ServiceProcess;
  let api: Api;

  beforeAll(async () => {
    service = await startService({ DATABASE_URL: await createTestDatabase() });
    api = new Api(service.url, await issueKey(service.url, PROCESS_ADMIN_TOKEN, 'padded-owner', 'free'));
    expect((await api.call('POST', '/projects', { body: { name: 'Padded' } })).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    expect(await service?.stop()).toBe(0);
  });

  const send = async (i: number) => {
    const answer = await api.call<{ data?: { projects: { edges: unknown[] } }; errors?: unknown }>('POST', '/graphql', { body: { query: padded(i) } });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data!.projects.edges).toHaveLength(1);
  };

  it('150 of them raise RSS by less than 256 MiB over the level after 20 of the same kind', async () => {
    expect(JSON.stringify({ query: padded(0) }).length).toBeLessThanOrEqual(BODY_LIMIT);
    for (let i = 0; i < 20; i++) await send(1_000_000 + i);
    const warmed = rssMiB(service.pid);
    let peak = warmed;
    for (let i = 0; i < 150; i++) {
      await send(i);
      peak = Math.max(peak, rssMiB(service.pid));
    }
    expect(peak - warmed).toBeLessThan(LIMIT_MIB);
    // the same document again is answered from the caches (and still right)
    await send(149);
  }, 180_000);
});
