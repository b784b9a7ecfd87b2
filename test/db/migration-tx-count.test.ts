import { randomUUID } from 'node:crypto';
import { migrate, openDatabase, type Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createEmptyDatabase } from '../support/database.js';
import { PostingRepository } from '../../src/domain/ledger/posting.repository.js';

/** Migration 4 counts, on each balance row, the transactions already posted before it ran. */
let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createEmptyDatabase(), createLogger('silent'), 2);
});
afterAll(() => db.close());

it('backfills tx_count from the history, then ledger_post keeps it', async () => {
  await db.orm.migrator.up({ to: 'Migration20261121020000_posting_request_key' });
  await db.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const [{ id: project }] = await db.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'p') RETURNING id`);
  const [asset, other] = [randomUUID(), randomUUID()];
  await db.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES ($1, $3, 'o', 'A', 'A', 0), ($2, $3, 'o', 'B', 'B', 0)`, [asset, other, project]);
  const [sys, a, b] = [randomUUID(), randomUUID(), randomUUID()];
  await db.query(
    `INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $4, 'o', 'sys', 'system'), ($2, $4, 'o', 'a', 'customer'), ($3, $4, 'o', 'b', 'customer')`,
    [sys, a, b, project],
  );
  // before migration 4: 2 seeds of A and 1 of B into sys, then sys→a, sys→a, a→b in A, sys→b in B
  const post = (from: string | null, to: string, assetId: string, amount: number) =>
    db.query(`SELECT * FROM ledger_post($1::int[], $2::uuid[], $3::uuid[], $4::uuid[], $5::bigint[], $6::text[])`, [[project], [assetId], [from], [to], [amount], [null]]);
  for (const [from, to, assetId] of [[null, sys, asset], [null, sys, asset], [null, sys, other], [sys, a, asset], [sys, a, asset], [a, b, asset], [sys, b, other]] as const) {
    await post(from, to, assetId, 10);
  }
  await migrate(db, createLogger('silent'));
  const counts = async () =>
    Object.fromEntries(
      (await db.query<{ k: string; n: string }>(`SELECT w.address || '/' || s.symbol AS k, b.tx_count::text AS n FROM balances b JOIN wallets w ON w.id = b.wallet_id JOIN assets s ON s.id = b.asset_id`)).map(
        (r) => [r.k, Number(r.n)],
      ),
    );
  expect(await counts()).toEqual({ 'sys/A': 4, 'sys/B': 2, 'a/A': 3, 'b/A': 1, 'b/B': 1 });
  // after: the current posting function counts too
  const [after] = await new PostingRepository(db).post([{ kind: 'transfer', projectId: project, assetId: asset, fromWalletId: b, toWalletId: a, amount: 5n, requestKey: null }]);
  expect(after.code).toBe('ok');
  expect(await counts()).toEqual({ 'sys/A': 4, 'sys/B': 2, 'a/A': 4, 'b/A': 2, 'b/B': 1 });
});
