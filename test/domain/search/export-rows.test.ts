import { finished } from 'node:stream/promises';
import { TransactionSearchRepository } from '../../../src/domain/search/transaction-search.repository.js';
import { withStatementScope } from '../../../src/db/statement-counter.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { fundedProject, type FundedProject } from '../../support/fixtures.js';

/** An export's transaction (CONTRACT §18): its idle-in-transaction time-out, and its connection given back on every path. */
let t: TestApp;
let e: FundedProject;
const OWNER = 'export-rows';
beforeAll(async () => {
  t = await startTestApp();
  e = await fundedProject(t, { owner: OWNER }, { customers: 0, systemBalance: 100 });
});
afterAll(() => t.close());

/** Opens an export as a request does (on a request connection); `released` settles when its connection is back. */
async function openExport(ownerId: string, idleInTransactionMs: number) {
  let onReleased!: () => void;
  const released = new Promise<void>((resolve) => (onReleased = resolve));
  const repository = new TransactionSearchRepository(t.db);
  const rows = await withStatementScope({ statements: 0 }, () => repository.openExport(ownerId, e.projectId, null, null, { idleInTransactionMs, onReleased }));
  return { rows, released };
}

const pool = () => ({ total: t.db.pool.totalCount, idle: t.db.pool.idleCount });

describe('an export’s rows (src/domain/search/export-rows.ts)', () => {
  it('a consumer that stops: PostgreSQL ends the transaction after its idle-in-transaction time-out; the stream fails and its connection is discarded', async () => {
    const { rows, released } = await openExport(OWNER, 200);
    // nothing reads it: its backend sits idle in its transaction after DECLARE
    await expect(finished(rows!)).rejects.toThrow(/idle-in-transaction/);
    await released;
    expect(pool().idle).toBe(pool().total);
  });

  it('read to its end: COMMIT, and the connection back whole', async () => {
    const { rows, released } = await openExport(OWNER, 60_000);
    expect(await rows!.toArray()).toHaveLength(1);
    await released;
    expect(pool().idle).toBe(pool().total);
  });

  it('destroyed before it is read: ROLLBACK, and the connection back whole', async () => {
    const { rows, released } = await openExport(OWNER, 60_000);
    const total = pool().total;
    rows!.destroy();
    await released;
    expect(pool()).toEqual({ total, idle: total }); // the same connection, whole
    const [state] = await t.db.query<{ open: number }>(`SELECT count(*)::int AS open FROM pg_stat_activity WHERE state <> 'idle' AND query LIKE '%export_rows%' AND pid <> pg_backend_pid()`);
    expect(state.open).toBe(0);
  });

  it('another owner’s project: null, its connection given back', async () => {
    const { rows, released } = await openExport('someone-else', 60_000);
    expect(rows).toBeNull();
    await released;
  });
});
