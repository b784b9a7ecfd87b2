import { randomUUID } from 'node:crypto';
import { PostingRepository } from '../../src/domain/ledger/posting.repository.js';
import { migrate, openDatabase, type Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createEmptyDatabase } from '../support/database.js';

/**
 * Migration 20261123123000 numbers the transactions already posted (each side's running count),
 * then ledger_post keeps numbering, and a transaction without its counts cannot be written.
 */
let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createEmptyDatabase(), createLogger('silent'), 2);
});
afterAll(() => db.close());

/** Every transaction side whose count is not its position in the wallet's history in that asset, and every balance row whose last count is not its tx_count. */
async function inconsistencies(): Promise<unknown[]> {
  return db.query(`
    WITH sides AS (
      SELECT from_wallet_id AS wallet_id, asset_id, seq, from_count AS n FROM transactions WHERE from_wallet_id IS NOT NULL
      UNION ALL SELECT to_wallet_id, asset_id, seq, to_count FROM transactions),
    numbered AS (SELECT *, row_number() OVER (PARTITION BY wallet_id, asset_id ORDER BY seq) AS position FROM sides)
    SELECT wallet_id, asset_id, seq, n, position, NULL AS tx_count FROM numbered WHERE n IS DISTINCT FROM position
    UNION ALL
    SELECT b.wallet_id, b.asset_id, NULL, (SELECT max(position) FROM numbered x WHERE x.wallet_id = b.wallet_id AND x.asset_id = b.asset_id), NULL, b.tx_count
      FROM balances b WHERE b.tx_count IS DISTINCT FROM (SELECT max(position) FROM numbered x WHERE x.wallet_id = b.wallet_id AND x.asset_id = b.asset_id)`);
}

it('backfills from_count and to_count from the history, then ledger_post writes them', async () => {
  await db.orm.migrator.up({ to: 'Migration20261123000000_routines' });
  await db.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const [{ id: project }] = await db.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'p') RETURNING id`);
  const [a, b] = [randomUUID(), randomUUID()];
  await db.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES ($1, $3, 'o', 'A', 'A', 0), ($2, $3, 'o', 'B', 'B', 0)`, [a, b, project]);
  const [sys, x, y] = [randomUUID(), randomUUID(), randomUUID()];
  await db.query(`INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $4, 'o', 'sys', 'system'), ($2, $4, 'o', 'x', 'customer'), ($3, $4, 'o', 'y', 'customer')`, [sys, x, y, project]);
  const post = (from: string | null, to: string, asset: string, amount: number) =>
    db.query(`SELECT * FROM ledger_post($1::int[], $2::uuid[], $3::uuid[], $4::uuid[], $5::bigint[], $6::text[])`, [[project], [asset], [from], [to], [amount], [null]]);
  const before: [string | null, string, string][] = [[null, sys, a], [null, sys, b], [sys, x, a], [sys, x, b], [x, y, a], [sys, y, a], [y, x, a], [sys, x, a]];
  for (const [from, to, asset] of before) await post(from, to, asset, from === null ? 100 : 10);
  expect(await db.query(`SELECT count(*)::int AS n FROM transactions`)).toEqual([{ n: before.length }]);

  await migrate(db, createLogger('silent'));
  expect(await inconsistencies()).toEqual([]);
  const counts = await db.query<{ from_count: string | null; to_count: string }>(`SELECT from_count::text, to_count::text FROM transactions ORDER BY seq`);
  expect(counts.map((c) => [c.from_count, c.to_count])).toEqual([
    [null, '1'], // seed A → sys
    [null, '1'], // seed B → sys
    ['2', '1'], // sys → x (A)
    ['2', '1'], // sys → x (B)
    ['2', '1'], // x → y (A)
    ['3', '2'], // sys → y (A)
    ['3', '3'], // y → x (A)
    ['4', '4'], // sys → x (A)
  ]);

  // after the migrations, through today's posting function
  const repository = new PostingRepository(db);
  for (const [from, to, asset] of [[x, sys, a], [null, sys, b], [sys, y, b]] as const) {
    const [result] = await repository.post([{ kind: from === null ? 'seed' : 'transfer', projectId: project, assetId: asset, fromWalletId: from, toWalletId: to, amount: 1n, requestKey: null }]);
    expect(result.code).toBe('ok');
  }
  expect(await db.query(`SELECT count(*)::int AS n FROM transactions`)).toEqual([{ n: before.length + 3 }]);
  expect(await inconsistencies()).toEqual([]);

  await expect(
    db.query(`INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance) VALUES ($1, $2, 'transfer', $3, $4, 1, 0, 1)`, [project, a, x, y]),
  ).rejects.toThrow(/transactions_(from|to)_count_check/);
});
