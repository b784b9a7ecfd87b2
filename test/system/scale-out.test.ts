import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { embeddedUrl } from '../../src/db/embedded-postgres.js';
import { migrations } from '../../migrations/index.js';
import { clusterPort } from '../support/database.js';
import { call, issueKey, killAll, newDataDir, queryUrl, removeDataDirs, spawnService, stopService, waitListening } from './support/process.js';

afterEach(killAll);
afterAll(removeDataDirs);

describe('two instances against one DATABASE_URL', () => {
  it('both start on an empty database and the migrations run exactly once', async () => {
    const name = `proc_${randomBytes(6).toString('hex')}`;
    await queryUrl(embeddedUrl(clusterPort(), 'postgres'), `CREATE DATABASE ${name}`);
    const databaseUrl = embeddedUrl(clusterPort(), name);
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
    await queryUrl(embeddedUrl(clusterPort(), 'postgres'), `DROP DATABASE ${name} WITH (FORCE)`);
  }, 60_000);

  it('LEDGER_AUTO_MIGRATE=false leaves an empty database alone (start-up then fails loudly)', async () => {
    const name = `proc_${randomBytes(6).toString('hex')}`;
    await queryUrl(embeddedUrl(clusterPort(), 'postgres'), `CREATE DATABASE ${name}`);
    const databaseUrl = embeddedUrl(clusterPort(), name);
    const service = spawnService({ databaseUrl, env: { LEDGER_AUTO_MIGRATE: 'false' } });
    const exit = await service.exited;
    expect(exit.code).toBe(1);
    expect(service.stdout()).toMatch(/start-up failed/);
    const tables = await queryUrl(databaseUrl, `SELECT 1 FROM information_schema.tables WHERE table_name = 'mikro_orm_migrations'`);
    expect(tables).toHaveLength(0);
    await queryUrl(embeddedUrl(clusterPort(), 'postgres'), `DROP DATABASE ${name} WITH (FORCE)`);
  }, 60_000);
});
