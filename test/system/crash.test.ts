import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embeddedUrl, runningClusterPort } from '../../src/db/embedded-postgres.js';
import { runBank } from './support/bank.js';
import { waitForClusterExit } from './support/cluster.js';
import { Api, issueKey } from './support/http.js';
import { historyViolations, ledgerViolations } from './support/invariants.js';
import { provisionBank } from './support/provision.js';
import { PROCESS_ADMIN_TOKEN, startService, type ServiceProcess } from './support/service-process.js';
import { connectSql } from './support/sql.js';

/**
 * SIGKILL the service and its embedded PostgreSQL (the whole process group) in the middle of
 * the bank workload, restart on the same LEDGER_DATA_DIR, and check that every acknowledged
 * transfer survived and every invariant holds. Transfers in flight at the kill are
 * indeterminate: each may or may not be posted, but only as requested.
 */
describe('crash: SIGKILL mid-load, restart on the same data dir', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-crash-'));
  let service: ServiceProcess | undefined;

  afterAll(async () => {
    if (service) expect(await service.stop()).toBe(0);
    await waitForClusterExit(dataDir).catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('keeps every acknowledged transfer and every invariant', async () => {
    service = await startService({ LEDGER_DATA_DIR: dataDir });
    const key = await issueKey(service.url, PROCESS_ADMIN_TOKEN, 'crash-owner', 'pro');
    const api = new Api(service.url, key);
    const { bank, funding } = await provisionBank(api, { customers: 30, seedMinor: 10_000_000n, fundMinor: 20_000n });

    const victim = service;
    let killed: Promise<void> | undefined;
    const run = await runBank({
      targets: [api],
      bank,
      writers: 32,
      transfersPerWriter: 1_000, // more than it will get to do: the kill ends the run
      readers: 2,
      seed: 7,
      typicalMinor: 5_000n,
      stop: () => killed !== undefined,
      onAcknowledged: (count) => {
        if (count === 500 && !killed) killed = victim.kill();
      },
    });
    await killed;
    service = undefined;
    console.log(
      `crash: killed after ${run.acknowledged.length} acknowledged (${run.refused} refused, ` +
        `${run.indeterminate.length} in flight at the kill), ${run.transfersPerSecond} transfers/s before it`,
    );
    expect(killed).toBeDefined();
    expect(run.unexpected).toEqual([]);
    expect(run.badReads).toEqual([]);

    await waitForClusterExit(dataDir);
    service = await startService({ LEDGER_DATA_DIR: dataDir });
    const sql = await connectSql(embeddedUrl(runningClusterPort(dataDir)!));
    try {
      const expected = { bank, acknowledged: [...funding, ...run.acknowledged], indeterminate: run.indeterminate };
      expect(await ledgerViolations(sql, expected)).toEqual([]);
      const [{ n }] = await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE project_id = $1 AND kind = 'transfer'`, [bank.projectId]);
      expect(Number(n)).toBeGreaterThanOrEqual(expected.acknowledged.length);
      expect(Number(n)).toBeLessThanOrEqual(expected.acknowledged.length + run.indeterminate.length);
      // The same key still works (keys are durable too), and the histories agree over the API.
      const after = api.at(service.url);
      expect(await historyViolations(after, expected)).toEqual([]);
      // And the restarted ledger takes new transfers.
      const res = await after.post('/transactions', { amount: 0.01, currency: bank.currency, projectId: bank.projectId, from: bank.system.id, to: bank.customers[0].id });
      expect(res.status).toBe(201);
    } finally {
      await sql.close();
    }
  }, 120_000);
});
