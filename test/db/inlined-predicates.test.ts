import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '../../src/db/database.js';
import { HistoryRepository } from '../../src/domain/ledger/history.repository.js';
import { HoldRepository } from '../../src/domain/holds/hold.repository.js';
import { LotRepository } from '../../src/domain/lots/lot.repository.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase } from '../support/database.js';

/**
 * "A hold is expired at t" (holds_expired.sql) and "a wallet's live lots, earliest expiry first"
 * (lots_live.sql) are written once, as SQL functions the repositories' statements call. They cost
 * nothing only because PostgreSQL inlines them: the plan holds the plain comparisons and reads the
 * same partial indexes as before. A function it could not inline would show in the plan by name
 * (a Function Scan, a per-row call) and lose the index.
 */
let db: Database;
const ids = { project: 0, asset: randomUUID(), wallet: randomUUID(), other: randomUUID() };

beforeAll(async () => {
  db = await openDatabase(await createTestDatabase(), createLogger('silent'), 2);
  await db.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const [{ id }] = await db.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'plans') RETURNING id`);
  ids.project = id;
  await db.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES ($1, $2, 'o', 'P', 'PTS', 0)`, [ids.asset, id]);
  await db.query(`UPDATE projects SET asset_id = $1 WHERE id = $2`, [ids.asset, id]);
  await db.query(`INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $3, 'o', 'a', 'customer'), ($2, $3, 'o', 'b', 'customer')`, [ids.wallet, ids.other, id]);
  await db.query(`INSERT INTO balances (wallet_id, asset_id, project_id, amount, held) VALUES ($1, $2, $3, 1000000, 2000)`, [ids.wallet, ids.asset, id]);
  // holds: pending, some past their expires_at, some without one; other statuses
  await db.query(
    `INSERT INTO holds (id, project_id, asset_id, from_wallet_id, to_wallet_id, amount, status, expires_at, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, CASE WHEN g % 10 = 0 THEN $3::uuid ELSE $4::uuid END, $4, 1, CASE WHEN g % 3 = 0 THEN 'voided' ELSE 'pending' END,
            CASE WHEN g % 4 = 0 THEN NULL ELSE now() + (g - 10000) * interval '1 minute' END, now(), now()
       FROM generate_series(1, 20000) g`,
    [id, ids.asset, ids.wallet, ids.other],
  );
  // lots of 500 wallets, some spent, half of them past their expires_at
  await db.query(
    `INSERT INTO lots (project_id, wallet_id, asset_id, amount, remaining, expires_at, created_at, credit_tx_id)
     SELECT $1, CASE WHEN g % 200 = 0 THEN $3::uuid ELSE md5((g % 500)::text)::uuid END, $2, 5, CASE WHEN g % 3 = 0 THEN 0 ELSE 5 END,
            now() + (g - 10000) * interval '1 minute', now(), gen_random_uuid()
       FROM generate_series(1, 20000) g`,
    [id, ids.asset, ids.wallet],
  );
  for (const table of ['holds', 'lots', 'balances']) await db.query(`ANALYZE ${table}`);
});
afterAll(() => db.close());

/** The statements a repository call sends, captured instead of run. */
async function statementsOf(call: (db: Database) => Promise<unknown>): Promise<{ sql: string; params: unknown[] }[]> {
  const captured: { sql: string; params: unknown[] }[] = [];
  const capture = { query: async (sql: string, params: unknown[] = []) => (captured.push({ sql, params }), []) } as unknown as Database;
  await call(capture).catch(() => undefined); // a call that needs a row stops after its statements are captured
  return captured;
}

async function planOf(statement: { sql: string; params: unknown[] }): Promise<string> {
  const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (VERBOSE, COSTS OFF) ${statement.sql}`, statement.params);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

describe('the predicate functions are inlined into the statements that use them', () => {
  it("a wallet's live lots: lots_wallet_idx, in its order, no function call", async () => {
    const [statement] = await statementsOf((d) => new LotRepository(d).live([{ walletId: ids.wallet, assetId: ids.asset }], 10));
    expect(statement.sql).toContain('lots_live(');
    const plan = await planOf(statement);
    expect(plan).toContain('lots_wallet_idx');
    expect(plan).not.toMatch(/lots_live|Function Scan on public\.lots/);
    expect(plan.split('Limit')[1]).not.toMatch(/Sort/); // the index gives the order under the limit
    const lots = await new LotRepository(db).live([{ walletId: ids.wallet, assetId: ids.asset }], null);
    expect(lots.length).toBeGreaterThan(0);
    expect(lots.every((lot, i) => lot.expiresAt > new Date() && (i === 0 || lots[i - 1].expiresAt <= lot.expiresAt))).toBe(true);
  });

  it('effective held (balances): the pending holds of the balance through a partial index, the expiry as comparisons', async () => {
    const [statement] = await statementsOf((d) => new HistoryRepository(d).balances([ids.wallet]));
    expect(statement.sql).toContain('holds_expired(h, now())');
    const plan = await planOf(statement);
    expect(plan).toMatch(/Index (Only )?Scan using holds_(pending|due|pending_created)_idx/);
    expect(plan).not.toContain('holds_expired');
    expect(plan).toMatch(/expires_at <= now\(\)/);
  });

  it("holds as read (status as of now, the status filter): the comparisons, not a call per row", async () => {
    for (const statement of await statementsOf((d) => new HoldRepository(d).list(ids.project, ids.wallet, 'expired', { limit: 20, offset: 0, before: null }))) {
      expect(statement.sql).toContain('holds_expired(h, now())');
      expect(await planOf(statement)).not.toContain('holds_expired');
    }
  });
});
