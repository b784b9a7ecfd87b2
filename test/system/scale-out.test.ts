import { existsSync } from 'node:fs';
import path from 'node:path';
import { migrations } from '../../migrations/index.js';
import { withCheckpointerStopped } from '../support/checkpointer.js';
import { createEmptyDatabase } from '../support/database.js';
import { call, issueKey, killAll, newDataDir, queryUrl, removeDataDirs, spawnService, stopService, waitListening } from './support/process.js';

afterEach(killAll);
afterAll(removeDataDirs);

describe('two instances against one DATABASE_URL', () => {
  // Run with the shared cluster's checkpointer stopped: nothing here may wait for a checkpoint, which
  // on a loaded machine takes as long as writing out every test database's dirty pages
  // (docs/decisions/ci-hang-checkpoint.md). A DROP DATABASE at the end hung here until the time-out.
  it('both start on an empty database and the migrations run exactly once (no step waits for a checkpoint)', () =>
    withCheckpointerStopped(async () => {
      const databaseUrl = await createEmptyDatabase();
      const dataDir = newDataDir();

      const [a, b] = await Promise.all(
        [1, 2].map(() => waitListening(spawnService({ databaseUrl, dataDir }), 30_000)),
      );
      expect(a.port).not.toBe(b.port);

      const rows = await queryUrl<{ name: string }>(databaseUrl, 'SELECT name FROM mikro_orm_migrations ORDER BY id');
      expect(rows.map((r) => r.name)).toEqual(migrations.map((m) => m.name));
      const applied = [a, b].filter((s) => /"msg":"migrations applied"/.test(s.stdout()));
      expect(applied).toHaveLength(1);

      // One database: a key issued through one instance authenticates on the other.
      const key = await issueKey(a, 'shared-owner', 'starter');
      const plan = await call(b, 'GET', '/user/plan', { key });
      expect(plan.status).toBe(200);
      expect(plan.body.user_id).toBe('shared-owner');
      for (const s of [a, b]) expect((await call(s, 'GET', '/readyz')).status).toBe(200);

      // With DATABASE_URL nothing is embedded: no cluster and no dev key in LEDGER_DATA_DIR.
      expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'dev-api-key'))).toBe(false);
      expect(a.stdout()).not.toMatch(/dev api key/);

      expect(await Promise.all([stopService(a), stopService(b)])).toEqual([
        { code: 0, signal: null },
        { code: 0, signal: null },
      ]);
    }), 60_000);

  it('LEDGER_AUTO_MIGRATE=false leaves an empty database alone (start-up then fails loudly)', async () => {
    const databaseUrl = await createEmptyDatabase();
    const service = spawnService({ databaseUrl, env: { LEDGER_AUTO_MIGRATE: 'false' } });
    const exit = await service.exited;
    expect(exit.code).toBe(1);
    expect(service.stdout()).toMatch(/start-up failed/);
    const tables = await queryUrl(databaseUrl, `SELECT 1 FROM information_schema.tables WHERE table_name = 'mikro_orm_migrations'`);
    expect(tables).toHaveLength(0);
  }, 60_000);
});
