import { jest } from '@jest/globals';
import { PostingRepository } from '../../../src/domain/ledger/posting.repository.js';
import type { PostingRequest } from '../../../src/domain/ledger/ledger.types.js';
import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * CONTRACT §26: a maturing hold is captured within 60 s of `matures_at` even when 10,000 mature in
 * the same second, each exactly once across any number of instances, some of their wallets busy.
 * The interleavings are forced with transactions the test holds open: a posting holding one
 * wallet, and a maturity round of instance A in flight while instance B sweeps. Sweepers are
 * driven by the test (interval 0).
 *
 * Holds go from customer i to customer i+1 (a ring of 100), 100 each; sender i's holds mature at
 * `second` + i ms, so A's round of 2,000 takes senders 0–19 (wallets 0–20) and B everything that
 * touches none of those and not the busy wallet 99: senders 21–97.
 */
const WALLETS = 100;
const HOLDS_PER_WALLET = 100;
const HOLDS = WALLETS * HOLDS_PER_WALLET;
const ROUND = 2_000;

let a: TestApp;
let b: TestApp;
let p: FundedProject;
beforeAll(async () => {
  a = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: ROUND } });
  b = await startTestApp({ databaseUrl: a.databaseUrl, lotSweep: { intervalMs: 0, batchSize: ROUND } });
  p = await fundedProject(a, await a.issueKey('maturity-burst'), { customers: WALLETS, systemBalance: HOLDS });
  const legs = p.customers.map((c) => ({ amount: HOLDS_PER_WALLET, currency: p.symbol, from: p.system.id, to: c.id }));
  await expectStatus(a.request('POST', '/transactions/batch', { key: p.key, body: { projectId: p.projectId, transfers: legs } }), 201);
  const holds: PostingRequest[] = p.customers.flatMap((c, i) =>
    Array.from({ length: HOLDS_PER_WALLET }, () => ({
      kind: 'hold' as const, projectId: p.projectId, assetId: p.assetId, fromWalletId: c.id, toWalletId: p.customers[(i + 1) % WALLETS].id,
      amount: 1n, requestKey: null, matureIn: 3600,
    })),
  );
  const ledger = new PostingRepository(a.db);
  for (let i = 0; i < holds.length; i += 2_500) {
    const results = await ledger.post(holds.slice(i, i + 2_500));
    expect(results.every((r) => r.code === 'ok')).toBe(true);
  }
}, 120_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

it('captures each of 10,000 holds maturing in one second once, within 60 s, shared by two instances, past a busy wallet', async () => {
  const [{ second }] = await a.db.query<{ second: Date }>(
    `WITH s AS (SELECT date_trunc('second', clock_timestamp()) - interval '1 second' AS second)
     UPDATE holds h SET matures_at = s.second + (array_position($2::uuid[], h.from_wallet_id) - 1) * interval '1 millisecond',
                        maturity_due_at = s.second + (array_position($2::uuid[], h.from_wallet_id) - 1) * interval '1 millisecond'
       FROM s WHERE h.project_id = $1 RETURNING s.second`,
    [p.projectId, p.customers.map((c) => c.id)],
  ).then((rows) => rows.slice(0, 1));
  const busy = p.customers[WALLETS - 1];
  const pokes = jest.spyOn(b.app.services.eventSequencer, 'poke');
  try {
    const { inFlight, bSweep } = await a.db.transaction(async (posting) => {
      await posting.query(`SELECT 1 FROM wallets WHERE id = $1 FOR NO KEY UPDATE`, [busy.id]); // a posting holds this wallet
      return a.db.transaction(async (otherInstance) => {
        const [round] = (await otherInstance.query(`SELECT * FROM holds_mature_sweep($1, $2)`, [p.projectId, ROUND])).rows; // A's round, not committed yet
        const bSweep = await b.app.services.expirySweeper.sweepOnce(); // B neither waits for it nor takes its holds
        return { inFlight: round as { matured: number }, bSweep };
      });
    });
    expect(inFlight.matured).toBe(ROUND);
    expect(bSweep.matured).toBe(77 * HOLDS_PER_WALLET); // senders 21–97
    expect(bSweep.skipped).toBeGreaterThanOrEqual(1);
    expect(bSweep.maxLagMs).toBeLessThan(60_000);
    expect(pokes).toHaveBeenCalled(); // B's rounds woke the numbering as they committed

    const retry = await a.app.services.expirySweeper.sweepOnce(); // A's round and the posting have committed: the rest
    expect(retry.matured).toBe(HOLDS - ROUND - 77 * HOLDS_PER_WALLET);
    const [{ lagMs }] = await a.db.query<{ lagMs: number }>(`SELECT extract(epoch FROM clock_timestamp() - $1::timestamptz) * 1000 AS "lagMs"`, [second]);
    expect(Number(lagMs)).toBeLessThan(60_000);

    await a.app.services.eventSequencer.flush();
    const [counts] = await a.db.query<{ events: string; holds: string; transactions: string; pending: string }>(
      `SELECT (SELECT count(*) FROM events e WHERE e.project_id = $1 AND e.type = 'hold.captured' AND e.status = 'matured' AND e.seq IS NOT NULL)::text AS events,
              (SELECT count(DISTINCT e.subject_id) FROM events e WHERE e.project_id = $1 AND e.type = 'hold.captured')::text AS holds,
              (SELECT count(*) FROM transactions t WHERE t.project_id = $1 AND t.hold_id IS NOT NULL)::text AS transactions,
              (SELECT count(*) FROM holds h WHERE h.project_id = $1 AND h.status <> 'captured')::text AS pending`,
      [p.projectId],
    );
    expect(counts).toEqual({ events: String(HOLDS), holds: String(HOLDS), transactions: String(HOLDS), pending: '0' });
    // dated matures_at, or later only where a wallet of it already had a later-dated transaction (the
    // holds left to the retry, whose neighbours B had captured): each wallet's history stays in date order
    const [dates] = await a.db.query<{ early: string; moved: string; unordered: string }>(
      `SELECT (SELECT count(*) FROM holds h JOIN transactions t ON t.id = h.transaction_id WHERE h.project_id = $1 AND t.created_at < h.matures_at)::text AS early,
              (SELECT count(*) FROM holds h JOIN transactions t ON t.id = h.transaction_id WHERE h.project_id = $1 AND t.created_at > h.matures_at)::text AS moved,
              (SELECT count(*) FROM (
                 SELECT x.created_at < lag(x.created_at) OVER (PARTITION BY x.wallet ORDER BY x.seq) AS back
                   FROM (SELECT from_wallet_id AS wallet, seq, created_at FROM transactions WHERE project_id = $1
                         UNION ALL SELECT to_wallet_id, seq, created_at FROM transactions WHERE project_id = $1) x) y
                WHERE y.back)::text AS unordered`,
      [p.projectId],
    );
    expect(dates.early).toBe('0');
    expect(Number(dates.moved)).toBeLessThanOrEqual(HOLDS - ROUND - 77 * HOLDS_PER_WALLET);
    expect(dates.unordered).toBe('0');
  } finally {
    pokes.mockRestore();
  }
}, 120_000);
