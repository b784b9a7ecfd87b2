import { randomUUID } from 'node:crypto';
import { migrate, openDatabase, type Database } from '../../src/db/database.js';
import { JournalRepository } from '../../src/domain/journal/journal.repository.js';
import { JournalVerifier } from '../../src/domain/journal/journal-verifier.js';
import { JournalWriter } from '../../src/domain/journal/journal-writer.js';
import { createLogger } from '../../src/logger.js';
import { createEmptyDatabase } from '../support/database.js';

/**
 * Migration 20261126172000 queues the transactions that predate the outbox (no event) in
 * journal_backlog, in their insertion order; the writer journals them before the event stream.
 */
let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createEmptyDatabase(), createLogger('silent'), 2);
});
afterAll(() => db.close());

it('journals the transactions without an event first, in seq order, then the stream', async () => {
  await db.orm.migrator.up({ to: 'Migration20261126150000_transaction_search' });
  await db.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const [{ id: project }] = await db.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'p') RETURNING id`);
  const asset = randomUUID();
  await db.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES ($1, $2, 'o', 'A', 'A', 2)`, [asset, project]);
  const [sys, x] = [randomUUID(), randomUUID()];
  await db.query(`INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $3, 'o', 'sys', 'system'), ($2, $3, 'o', 'x', 'customer')`, [sys, x, project]);
  const insert = async (from: string | null, to: string, amount: number) =>
    (
      await db.query<{ id: string }>(
        `INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $4::uuid IS NOT NULL THEN 1 END, 1, CASE WHEN $4::uuid IS NOT NULL THEN 1 END, 1) RETURNING id`,
        [project, asset, from === null ? 'seed' : 'transfer', from, to, amount],
      )
    )[0].id;
  const old = [await insert(null, sys, 1000), await insert(sys, x, 250), await insert(x, sys, 50)];
  // one posted when the outbox existed: its event, numbered
  const streamed = await insert(sys, x, 10);
  await db.query(`INSERT INTO events (project_id, type, subject_id, created_at, seq, stream_pos) VALUES ($1, 'transaction.posted', $2, now(), 1, 1)`, [project, streamed]);
  await db.query(`INSERT INTO balances (wallet_id, asset_id, project_id, amount) VALUES ($1, $3, $4, 1000 - 250 + 50 - 10), ($2, $3, $4, 250 - 50 + 10)`, [sys, x, asset, project]);

  await migrate(db, createLogger('silent'));
  expect(await db.query(`SELECT transaction_id FROM journal_backlog ORDER BY pos`)).toEqual(old.map((id) => ({ transaction_id: id })));

  const repository = new JournalRepository(db);
  const writer = new JournalWriter(repository, createLogger('silent'));
  await writer.flush();
  expect(await repository.page(project, '0', 10)).toEqual([...old, streamed].map((id, i) => expect.objectContaining({ seq: String(i + 1), transactionId: id })));
  expect(await db.query(`SELECT count(*)::int AS n FROM journal_backlog`)).toEqual([{ n: 0 }]);
  expect(await new JournalVerifier(repository).verify(project)).toMatchObject({ ok: true, entries: 4, lastSeq: 4 });
});
