import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddedUrl, runningClusterPort } from '../../src/db/embedded-postgres.js';
import { runBank } from './support/bank.js';
import { waitForClusterExit } from './support/cluster.js';
import { Api, issueKey } from './support/http.js';
import { historyViolations, ledgerViolations } from './support/invariants.js';
import { majorText, provisionBank } from './support/provision.js';
import { PROCESS_ADMIN_TOKEN, startService, type ServiceProcess } from './support/service-process.js';
import { connectSql } from './support/sql.js';

/**
 * The crash test (crash.test.ts) with credit lines (CONTRACT §28): half the customers may go down
 * to −limit, so the bank workload drives them below zero. SIGKILL the service and its PostgreSQL
 * mid-load, restart on the same data dir: every acknowledged transfer survived, conservation
 * holds, no wallet is below −limit (none without a line below zero), and no balance row breaks
 * its CHECK or the credit-counted available ≥ 0.
 */
describe('crash with credit lines: SIGKILL mid-load, restart on the same data dir', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-crash-credit-'));
  let service: ServiceProcess | undefined;

  afterAll(async () => {
    if (service) expect(await service.stop()).toBe(0);
    await waitForClusterExit(dataDir).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('keeps every acknowledged transfer and every invariant, lines counted', async () => {
    service = await startService({ LEDGER_DATA_DIR: dataDir });
    const key = await issueKey(service.url, PROCESS_ADMIN_TOKEN, 'crash-credit-owner', 'pro');
    const api = new Api(service.url, key);
    const { bank, funding } = await provisionBank(api, { customers: 20, seedMinor: 10_000_000n, fundMinor: 10_000n });
    const creditLimits = new Map<string, bigint>();
    for (const [i, customer] of bank.customers.entries()) {
      if (i % 2) continue;
      const limit = 15_000n;
      const res = await api.put(`/wallets/${customer.id}/credit-line`, { projectId: bank.projectId, currency: bank.currency, limit: majorText(limit, bank.fractions) });
      expect(res.status).toBe(200);
      creditLimits.set(customer.id, limit);
    }

    const victim = service;
    let killed: Promise<void> | undefined;
    const run = await runBank({
      targets: [api],
      bank,
      writers: 32,
      transfersPerWriter: 1_000,
      readers: 2,
      seed: 11,
      typicalMinor: 5_000n,
      creditLimits,
      stop: () => killed !== undefined,
      onAcknowledged: (count) => {
        if (count === 500 && !killed) killed = victim.kill();
      },
    });
    await killed;
    service = undefined;
    console.log(`crash with credit lines: killed after ${run.acknowledged.length} acknowledged (${run.refused} refused, ${run.indeterminate.length} in flight at the kill)`);
    expect(run.unexpected).toEqual([]);
    expect(run.badReads).toEqual([]);

    await waitForClusterExit(dataDir);
    service = await startService({ LEDGER_DATA_DIR: dataDir });
    const sql = await connectSql(embeddedUrl(runningClusterPort(dataDir)!));
    try {
      const expected = { bank, acknowledged: [...funding, ...run.acknowledged], indeterminate: run.indeterminate, creditLimits };
      expect(await ledgerViolations(sql, expected)).toEqual([]);
      // the workload did go below zero where a line allowed it, and nowhere else
      const rows = await sql.query<{ wallet_id: string; amount: string; credit_limit: string }>(
        `SELECT wallet_id, amount::text, credit_limit::text FROM balances WHERE project_id = $1 AND amount < 0`,
        [bank.projectId],
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(BigInt(row.amount)).toBeGreaterThanOrEqual(-(creditLimits.get(row.wallet_id) ?? 0n));
      expect(await historyViolations(api.at(service.url), expected)).toEqual([]);
    } finally {
      await sql.close();
    }
  }, 120_000);
});
