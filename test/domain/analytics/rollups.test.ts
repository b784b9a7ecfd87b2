import type { Principal } from '../../../src/domain/auth/api-key.service.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { activity, program, random } from './workload.js';

/**
 * The rollups (CONTRACT §23) folded batch by batch by the event numbering
 * (src/domain/analytics/analytics_fold.sql) against analytics_rebuild.sql, which recomputes them
 * from the transactions in one pass; and the answers against the transactions themselves.
 */
let t: TestApp;
let key: string;
let principal: Principal;
beforeAll(async () => {
  // the sweeper runs only when the workload asks (sweepOnce)
  t = await startTestApp({ lotSweep: { intervalMs: 3_600_000, batchSize: 500 } });
  key = await t.issueKey('analyst', 'pro');
  principal = (await t.app.services.apiKeys.authenticate(key))!;
});
afterAll(() => t.close());

/** Every rollup row of the project, as text, in key order. */
async function rollups(projectId: number): Promise<{ buckets: unknown[]; wallets: unknown[] }> {
  const buckets = await t.db.query(
    `SELECT asset_id, grain, start, issued::text, redeemed::text, transferred::text, expired::text, reversed::text, active_wallets, outstanding::text
       FROM analytics_buckets WHERE project_id = $1 ORDER BY asset_id, grain, start`,
    [projectId],
  );
  const wallets = await t.db.query(`SELECT asset_id, grain, start, wallet_id FROM analytics_active_wallets WHERE project_id = $1 ORDER BY 1, 2, 3, 4`, [projectId]);
  return { buckets, wallets };
}

const HOUR = 3_600_000;

/**
 * Rounds of random activity, each posted while the numbering waits, then dated by SQL at random
 * instants of the last three days (out of commit order, earlier than rounds already folded too)
 * and folded in one numbering run: folds that touch many buckets, and buckets folded again later.
 */
async function datedWorkload(projectId: number, rounds: number, seed: number, p: Awaited<ReturnType<typeof program>>): Promise<void> {
  const next = random(seed);
  const sequencer = t.app.services.eventSequencer;
  await sequencer.flush(); // the set-up, folded as it came
  await sequencer.stop();
  const now = Date.now();
  for (let round = 0; round < rounds; round++) {
    const [{ seq }] = await t.db.query<{ seq: string }>(`SELECT coalesce(max(seq), 0)::text AS seq FROM transactions`);
    await activity(t, p, next, 40);
    const ids = (await t.db.query<{ id: string }>(`SELECT id FROM transactions WHERE project_id = $1 AND seq > $2 ORDER BY seq`, [projectId, seq])).map((r) => r.id);
    const dates = ids.map(() => new Date(now - Math.floor(next() * 72 * HOUR)));
    await t.db.query(`UPDATE transactions t SET created_at = x.date FROM unnest($1::uuid[], $2::timestamptz[]) x (id, date) WHERE t.id = x.id`, [ids, dates]);
    await sequencer.flush();
  }
  sequencer.start();
}

describe('rollups folded after each numbering', () => {
  it('equal the rollups rebuilt from the transactions, after random rounds with reversals, holds, batches and expiries', async () => {
    const p = await program(t, key);
    await datedWorkload(p.projectId, 4, 2611, p);

    const kinds = await t.db.query<{ kind: string; n: string }>(`SELECT kind, count(*)::text AS n FROM transactions WHERE project_id = $1 GROUP BY kind`, [p.projectId]);
    expect(Object.fromEntries(kinds.map((k) => [k.kind, Number(k.n)]))).toEqual(
      expect.objectContaining({ transfer: expect.any(Number), capture: expect.any(Number), reversal: expect.any(Number), expiry: expect.any(Number) }),
    );
    const incremental = await rollups(p.projectId);
    expect(incremental.buckets.length).toBeGreaterThan(40); // many hours and days, both currencies

    await t.app.services.analytics.rebuild(p.projectId);
    const rebuilt = await rollups(p.projectId);
    expect(rebuilt).toEqual(incremental);
  });

  it('answer, for any range, what the transactions say: flows by class, outstanding at until, the identity, active wallets', async () => {
    const p = await program(t, key, 5);
    await datedWorkload(p.projectId, 2, 77, p);
    const next = random(5);
    for (let i = 0; i < 12; i++) {
      const interval = next() < 0.5 ? 'hour' : 'day';
      const until = new Date(Date.now() + HOUR - Math.floor(next() * 80 * HOUR));
      const since = new Date(until.getTime() - (interval === 'hour' ? 1 + Math.floor(next() * 60) : 1 + Math.floor(next() * 4)) * (interval === 'hour' ? HOUR : 24 * HOUR));
      const currency = next() < 0.7 ? 'PTS' : 'GEM';
      const answer = await t.app.services.analytics.analytics(principal, { projectId: p.projectId, currency, since, until, interval });
      const [truth] = await t.db.query<Record<string, string>>(
        `SELECT ${['issued', 'redeemed', 'transferred', 'expired', 'reversed'].map((c) => `coalesce(sum(${c}) FILTER (WHERE created_at >= $3), 0)::text AS ${c}`).join(', ')},
                (SELECT coalesce(sum(amount), 0) FROM customer_moves WHERE created_at < $4)::text AS outstanding_until,
                (SELECT coalesce(sum(amount), 0) FROM customer_moves WHERE created_at < $3)::text AS outstanding_since
           FROM (SELECT t.created_at,
                        CASE WHEN tw.type = 'customer' AND (fw.type IS NULL OR fw.type = 'system') THEN t.amount ELSE 0 END AS issued,
                        CASE WHEN fw.type = 'customer' AND tw.type = 'system' THEN t.amount ELSE 0 END AS redeemed,
                        CASE WHEN fw.type = 'customer' AND tw.type = 'customer' THEN t.amount ELSE 0 END AS transferred,
                        CASE WHEN t.kind = 'expiry' THEN t.amount ELSE 0 END AS expired,
                        CASE WHEN t.reverses IS NOT NULL THEN t.amount ELSE 0 END AS reversed
                   FROM transactions t JOIN assets a ON a.id = t.asset_id
                   LEFT JOIN wallets fw ON fw.id = t.from_wallet_id LEFT JOIN wallets tw ON tw.id = t.to_wallet_id
                  WHERE t.project_id = $1 AND a.symbol = $2 AND t.created_at < $4) x`.replaceAll(
          'customer_moves',
          `(SELECT t.created_at, CASE WHEN tw.type = 'customer' THEN t.amount ELSE -t.amount END AS amount
              FROM transactions t JOIN assets a ON a.id = t.asset_id LEFT JOIN wallets fw ON fw.id = t.from_wallet_id LEFT JOIN wallets tw ON tw.id = t.to_wallet_id
             WHERE t.project_id = $1 AND a.symbol = $2 AND (tw.type = 'customer' OR fw.type = 'customer') AND (tw.type IS DISTINCT FROM 'customer' OR fw.type IS DISTINCT FROM 'customer')) AS moves`, // an alias: PostgreSQL 15 requires one
        ),
        [p.projectId, currency, answer.since, answer.until],
      );
      const { totals } = answer;
      expect({ ...totals, outstandingValue: undefined }).toEqual({
        issued: BigInt(truth.issued),
        redeemed: BigInt(truth.redeemed),
        transferred: BigInt(truth.transferred),
        expired: BigInt(truth.expired),
        reversed: BigInt(truth.reversed),
        outstanding: BigInt(truth.outstanding_until),
        outstandingValue: undefined,
      });
      expect(BigInt(truth.outstanding_until) - BigInt(truth.outstanding_since)).toBe(totals.issued - totals.redeemed - totals.expired);
      const step = interval === 'hour' ? HOUR : 24 * HOUR;
      expect(answer.series.map((b) => b.start.getTime())).toEqual(answer.series.map((_, k) => answer.since.getTime() + k * step));
      const active = await t.db.query<{ start: Date; n: number }>(
        `SELECT date_trunc($5, t.created_at, 'UTC') AS start, count(DISTINCT w.id)::int AS n
           FROM transactions t JOIN assets a ON a.id = t.asset_id
           JOIN wallets w ON w.id IN (t.from_wallet_id, t.to_wallet_id) AND w.type = 'customer'
          WHERE t.project_id = $1 AND a.symbol = $2 AND t.created_at >= $3 AND t.created_at < $4 GROUP BY 1`,
        [p.projectId, currency, answer.since, answer.until, interval],
      );
      const byStart = new Map(active.map((r) => [r.start.getTime(), r.n]));
      expect(answer.series.map((b) => b.activeWallets)).toEqual(answer.series.map((b) => byStart.get(b.start.getTime()) ?? 0));
    }
  });

  it('outstanding at the end of the current bucket is the sum of the customer wallets’ balances now', async () => {
    const p = await program(t, key, 4);
    await activity(t, p, random(9), 30);
    await t.app.services.eventSequencer.flush();
    for (const currency of ['PTS', 'GEM']) {
      const answer = await t.app.services.analytics.analytics(principal, { projectId: p.projectId, currency, interval: 'hour' });
      const [{ total }] = await t.db.query<{ total: string }>(
        `SELECT coalesce(sum(b.amount), 0)::text AS total FROM balances b JOIN wallets w ON w.id = b.wallet_id JOIN assets a ON a.id = b.asset_id
          WHERE w.project_id = $1 AND w.type = 'customer' AND a.symbol = $2`,
        [p.projectId, currency],
      );
      expect(answer.totals.outstanding).toBe(BigInt(total));
      expect(answer.totals.outstanding).toBeGreaterThan(0n);
    }
  });
});
