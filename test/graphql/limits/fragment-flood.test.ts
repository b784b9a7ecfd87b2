import { startTestApp, type TestApp } from '../../support/test-app.js';
import { raw } from '../support/client.js';
import { fragmentChain } from '../support/expanding-documents.js';

/**
 * CONTRACT §18: `/healthz` keeps answering within 200 ms while documents that expand
 * exponentially arrive, over real HTTP. Before the fix each 24-level chain held the process for
 * 2.2 s, so /healthz waited seconds behind them.
 */
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('fragment-flood', 'enterprise');
  await t.graphql(key, '{ plan { planCode } }'); // the key's first use loads its principal and call count
});
afterAll(() => t.close());

/** A client sending chains back to back: one always in flight (before the fix each held the process 2.2 s). */
const SENDERS = 1;
const CHAINS_EACH = 20;

it('answers /healthz within 200 ms while fragment chains flood /graphql', async () => {
  const chain = fragmentChain(24, 'spreads');
  const refusals: unknown[] = [];
  const send = async (sender: number) => {
    for (let i = 0; i < CHAINS_EACH; i++) {
      // a new text each time, as an attacker would send: Apollo caches validated documents by their hash
      const res = await raw(t, key, `${chain} # ${sender}.${i}`);
      refusals.push([res.status, res.body.errors?.[0]?.extensions.code, res.body.errors?.[0]?.extensions.details.limit]);
    }
  };
  let flooding = true;
  const latencies: number[] = [];
  const probe = async () => {
    while (flooding) {
      const started = performance.now();
      const res = await fetch(`${t.baseUrl}/healthz`);
      await res.text();
      expect(res.status).toBe(200);
      latencies.push(performance.now() - started);
    }
  };
  const probing = probe();
  await Promise.all(Array.from({ length: SENDERS }, (_, sender) => send(sender)));
  flooding = false;
  await probing;
  // The median within the contract's 200 ms, and none near the seconds one chain held the process
  // before: a probe's wall time also counts the moments other processes hold the CPU (other test
  // files and their databases run alongside on CI), which a strict maximum would turn into a flaky
  // test. The CPU each refusal takes is bounded strictly in fragment-chain.test.ts.
  expect(latencies.length).toBeGreaterThanOrEqual(5);
  latencies.sort((a, b) => a - b);
  expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(200);
  expect(latencies.at(-1)).toBeLessThan(1_000);
  expect(refusals).toHaveLength(SENDERS * CHAINS_EACH);
  expect(new Set(refusals.map((refusal) => JSON.stringify(refusal)))).toEqual(new Set([JSON.stringify([400, 'validation_error', 'selections'])]));
});
