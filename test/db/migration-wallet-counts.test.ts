import { randomUUID } from 'node:crypto';
import { migrate, openDatabase, type Database } from '../../src/db/database.js';
import { PlanRepository } from '../../src/domain/auth/plan.repository.js';
import { WalletService } from '../../src/domain/wallets/wallet.service.js';
import { createLogger } from '../../src/logger.js';
import { createEmptyDatabase } from '../support/database.js';

/** Migration 6 counts, on each owner row, the wallets of each type created before it ran. */
let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createEmptyDatabase(), createLogger('silent'), 2);
});
afterAll(() => db.close());

it('backfills the owners’ wallet counts, then creating a wallet keeps them (and the quota reads them)', async () => {
  await db.orm.migrator.up({ to: 'Migration20261121040000_idempotent_answers_keep_key_order' });
  await db.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'free', 's'), ('empty', 'free', 'e')`);
  const [{ id: project }] = await db.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'p') RETURNING id`);
  await db.query(
    `INSERT INTO wallets (id, project_id, owner_id, address, type)
     VALUES ($1, $5, 'o', 'a', 'customer'), ($2, $5, 'o', 'b', 'customer'), ($3, $5, 'o', 'c', 'customer'), ($4, $5, 'o', 'sys', 'system')`,
    [randomUUID(), randomUUID(), randomUUID(), randomUUID(), project],
  );
  await migrate(db, createLogger('silent'));
  const counts = async () =>
    Object.fromEntries(
      (await db.query<{ id: string; customer: string; system: string }>(`SELECT id, customer_wallet_count AS customer, system_wallet_count AS system FROM owners`)).map((r) => [
        r.id,
        [Number(r.customer), Number(r.system)],
      ]),
    );
  expect(await counts()).toEqual({ o: [3, 1], empty: [0, 0] });

  const principal = { ownerId: 'o', plan: (await new PlanRepository(db).load()).get('free')!, subscriptionCode: 's' }; // 2 system wallets
  const wallets = new WalletService(db);
  await wallets.create(principal, 'system', { projectId: project });
  expect(await counts()).toEqual({ o: [3, 2], empty: [0, 0] });
  await expect(wallets.create(principal, 'system', { projectId: project })).rejects.toMatchObject({ code: 'quota_exceeded' });
  expect(await counts()).toEqual({ o: [3, 2], empty: [0, 0] });
});
