import { migrate, openDatabase, type Database } from '../../src/db/database.js';
import { ApiKeyRepository } from '../../src/domain/auth/api-key.repository.js';
import { createLogger } from '../../src/logger.js';
import { UUID_RE } from '../support/fixtures.js';
import { createEmptyDatabase } from '../support/database.js';

/** Key management's migration gives the keys already issued an id; their prefix cannot be recovered (null). */
let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createEmptyDatabase(), createLogger('silent'), 2);
});
afterAll(() => db.close());

it('gives existing keys an id and a null prefix; they keep authenticating, and can be listed and revoked', async () => {
  await db.orm.migrator.up({ to: 'Migration20261123000000_routines' });
  await db.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('old', 'pro', 's')`);
  await db.query(`INSERT INTO api_keys (key_hash, owner_id) VALUES ('h1', 'old'), ('h2', 'old')`);
  await migrate(db, createLogger('silent'));

  const keys = new ApiKeyRepository(db);
  const { items, total } = await keys.listLive('old', 10, 0);
  expect(total).toBe(2);
  expect(items.map((k) => k.prefix)).toEqual([null, null]);
  for (const key of items) expect(key.id).toMatch(UUID_RE);
  expect(new Set(items.map((k) => k.id)).size).toBe(2);
  expect(await keys.ownerOf('h1')).toMatchObject({ ownerId: 'old', planCode: 'pro' });

  expect(await keys.revoke(items[0].id)).toEqual({ id: items[0].id, ownerId: 'old' });
  expect((await keys.listLive('old', 10, 0)).total).toBe(1);
});
