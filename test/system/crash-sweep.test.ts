import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddedUrl, runningClusterPort } from '../../src/db/embedded-postgres.js';
import { runBank } from './support/bank.js';
import { waitForClusterExit } from './support/cluster.js';
import { Api, issueKey } from './support/http.js';
import { expiredOf, historyViolations, ledgerViolations } from './support/invariants.js';
import { lotViolations } from './support/lots-oracle.js';
import { provisionBank, type Transfer } from './support/provision.js';
import { PROCESS_ADMIN_TOKEN, startService, type ServiceProcess } from './support/service-process.js';
import { connectSql } from './support/sql.js';

const LOTS = 6_000;

/**
 * SIGKILL the service and its embedded PostgreSQL while the lot sweeper is working through a
 * backlog of due lots (and customers keep transferring), restart on the same LEDGER_DATA_DIR, let
 * the restarted sweeper finish, and check that no lot was expired twice or lost: each lot ends
 * with nothing left, each expiry takes exactly what its lot had (the lot model replayed over every
 * posting), and every ledger invariant holds with the expiries.
 */
describe('crash: SIGKILL during a lot sweep, restart on the same data dir', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-crash-sweep-'));
  const env = { LEDGER_DATA_DIR: dataDir, LEDGER_LOT_SWEEP_INTERVAL_MS: '100', LEDGER_LOT_SWEEP_BATCH: '100' };
  let service: ServiceProcess | undefined;

  afterAll(async () => {
    if (service) expect(await service.stop()).toBe(0);
    await waitForClusterExit(dataDir).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('expires every lot exactly once, none twice, none lost', async () => {
    service = await startService(env);
    const key = await issueKey(service.url, PROCESS_ADMIN_TOKEN, 'crash-sweep-owner', 'pro');
    const api = new Api(service.url, key);
    const { bank, funding } = await provisionBank(api, { customers: 20, seedMinor: 100_000_000n, fundMinor: 50_000n, name: 'crash sweep' });
    const assetId: string = (await api.get(`/assets?projectId=${bank.projectId}`)).body.assets[0].id;
    expect((await api.put(`/assets/${assetId}`, { expiresAfterSeconds: 3600 })).status).toBe(200);

    // The backlog: LOTS credits to customers in a few ledger_post calls (acknowledged like any
    // transfer), then every lot made due at once (what the passing of an hour would do).
    const sql = await connectSql(embeddedUrl(runningClusterPort(dataDir)!));
    const bulk: Transfer[] = [];
    try {
      for (let offset = 0; offset < LOTS; offset += 2_000) {
        const n = Math.min(2_000, LOTS - offset);
        const to = Array.from({ length: n }, (_, i) => bank.customers[(offset + i) % bank.customers.length].id);
        const amounts = Array.from({ length: n }, (_, i) => BigInt(1 + ((offset + i) % 50)));
        const none = Array(n).fill(null);
        const rows = await sql.query<{ idx: number; code: string; tx_id: string }>(
          `SELECT idx, code, tx_id FROM ledger_post($1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[])`,
          [Array(n).fill('transfer'), Array(n).fill(bank.projectId), Array(n).fill(assetId), Array(n).fill(bank.system.id), to, amounts.map(String), none, none, none, none, none, none],
        );
        for (const row of rows) {
          expect(row.code).toBe('ok');
          bulk.push({ id: row.tx_id, from: bank.system.id, to: to[row.idx - 1], amount: amounts[row.idx - 1] });
        }
      }
      await sql.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) WHERE project_id = $1`, [bank.projectId]);
    } finally {
      await sql.close();
    }

    // Customers keep transferring (their postings expire their own lots first) while the sweeper
    // works; the kill comes once the sweeper has posted some expiries and has more to do.
    const victim = service;
    let killed: Promise<void> | undefined;
    let progress = '';
    const watcher = (async () => {
      const watch = await connectSql(embeddedUrl(runningClusterPort(dataDir)!));
      try {
        while (!killed) {
          const [row] = await watch.query<{ expired: string; due: string }>(
            `SELECT (SELECT count(*) FROM transactions WHERE project_id = $1 AND kind = 'expiry')::text AS expired,
                    (SELECT count(*) FROM lots WHERE project_id = $1 AND remaining > held)::text AS due`,
            [bank.projectId],
          );
          if (Number(row.expired) >= 1_000 && Number(row.due) > 0) {
            progress = `${row.expired} expiries posted, ${row.due} lots still due`;
            killed = victim.kill();
          }
        }
      } finally {
        await watch.close().catch(() => undefined);
      }
    })();
    const run = await runBank({ targets: [api], bank, writers: 8, transfersPerWriter: 100_000, readers: 0, seed: 99, typicalMinor: 500n, stop: () => killed !== undefined });
    await watcher.catch(() => undefined);
    await killed;
    service = undefined;
    console.log(`crash during a sweep: killed with ${progress}; ${run.acknowledged.length} transfers acknowledged, ${run.indeterminate.length} in flight`);
    expect(killed).toBeDefined();
    expect(progress).not.toBe('');
    expect(run.unexpected).toEqual([]);

    await waitForClusterExit(dataDir);
    service = await startService(env);
    const after = await connectSql(embeddedUrl(runningClusterPort(dataDir)!));
    try {
      for (const until = Date.now() + 60_000; ; ) {
        const [{ due }] = await after.query<{ due: string }>(`SELECT count(*)::text AS due FROM lots WHERE project_id = $1 AND remaining > held AND expires_at <= now()`, [bank.projectId]);
        if (due === '0') break;
        if (Date.now() > until) throw new Error(`${due} lots still due a minute after the restart`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const twice = await after.query(`SELECT lot_id FROM transactions WHERE project_id = $1 AND kind = 'expiry' GROUP BY lot_id HAVING count(*) > 1`, [bank.projectId]);
      expect(twice).toEqual([]);
      const [{ lots, left }] = await after.query<{ lots: string; left: string }>(
        `SELECT count(*)::text AS lots, coalesce(sum(remaining), 0)::text AS left FROM lots WHERE project_id = $1 AND expires_at <= now()`,
        [bank.projectId],
      );
      expect(Number(lots)).toBe(LOTS); // the backlog (the run's credits made lots that expire in an hour)
      expect(left).toBe('0'); // every one expired or spent: none lost
      const oracle = await lotViolations(after, { projectId: bank.projectId, customers: bank.customers.map((c) => c.id) });
      expect(oracle.problems).toEqual([]);
      expect(oracle.summary.expiries).toBeGreaterThan(1_000);
      const expected = { bank, acknowledged: [...funding, ...bulk, ...run.acknowledged], indeterminate: run.indeterminate, expired: await expiredOf(after, bank.projectId) };
      expect(await ledgerViolations(after, expected)).toEqual([]);
      expect(await historyViolations(api.at(service.url), expected)).toEqual([]);
    } finally {
      await after.close();
    }
  }, 240_000);
});
