import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  call,
  isAlive,
  issueKey,
  killAll,
  killGroup,
  newDataDir,
  pidFile,
  postmaster,
  queryEmbedded,
  removeDataDirs,
  ROOT,
  spawnService,
  startService,
  stopService,
  waitFor,
  withTimeout,
} from './support/process.js';

afterEach(killAll);
afterAll(removeDataDirs);

const DEV_KEY_LINE = /dev api key \(owner dev, plan pro\): (lk_[A-Za-z0-9_-]+)/;

/** The phases of the service's `start-up phases` log line (src/start.ts). */
function startPhases(stdout: string): string[] {
  const line = stdout.split('\n').find((text) => text.includes('"start-up phases"'));
  return Object.keys((JSON.parse(line ?? '{}') as { startMs?: Record<string, number> }).startMs ?? {});
}

/**
 * A first start makes its cluster by initdb, or copies the build's cluster template
 * (src/db/cluster-template.ts, made here as `npm run build` makes it): the same service either way.
 */
describe.each([
  ['by initdb', 'false'],
  ['from the build\'s cluster template', 'true'],
])('first start on a new data directory, the cluster made %s', (_how, template) => {
  beforeAll(() => {
    if (template === 'true') execFileSync(process.execPath, ['scripts/cluster-template.mjs'], { cwd: ROOT, stdio: 'inherit' });
  }, 120_000);

  it('prints a dev key once, keeps it in dev-api-key, and a second start reuses it', async () => {
    const dataDir = newDataDir();
    const env = { LEDGER_CLUSTER_TEMPLATE: template };
    const first = await startService({ dataDir, adminToken: null, env });
    expect(first.stdout().includes('new cluster copied from the build\'s cluster template')).toBe(template === 'true');
    const printed = DEV_KEY_LINE.exec(first.stdout())?.[1];
    expect(printed).toBeDefined();
    const file = path.join(dataDir, 'dev-api-key');
    expect(first.stdout()).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe(`${printed}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const plan = await call(first, 'GET', '/user/plan', { key: printed });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ user_id: 'dev', plan_code: 'pro', subscription_status: 'active' });
    // Without LEDGER_ADMIN_TOKEN the admin endpoint does not exist.
    const admin = await call(first, 'POST', '/admin/api-keys', { admin: true, body: { owner: 'x', plan_code: 'pro' } });
    expect(admin.status).toBe(404);
    expect(admin.body.code).toBe('not_found');
    // the GraphQL schema was built while initdb ran (a first start by initdb only) and is the one served
    expect(startPhases(first.stdout()).includes('schema')).toBe(template === 'false');
    const me = await call<{ data: { __type: { name: string } } }>(first, 'POST', '/graphql', { key: printed, body: { query: '{ __type(name: "Query") { name } }' } });
    expect(me.status).toBe(200);
    expect(me.body.data.__type.name).toBe('Query');
    expect(await stopService(first)).toEqual({ code: 0, signal: null });

    const second = await startService({ dataDir, env });
    expect(second.stdout()).not.toMatch(/dev api key/);
    expect(readFileSync(file, 'utf8')).toBe(`${printed}\n`);
    const keys = await queryEmbedded<{ owner_id: string }>(dataDir, 'SELECT owner_id FROM api_keys');
    expect(keys).toEqual([{ owner_id: 'dev' }]);
    expect((await call(second, 'GET', '/user/plan', { key: printed })).status).toBe(200);
    expect(startPhases(second.stdout())).not.toContain('schema');
    expect(startPhases(second.stdout())).toContain('app');
    expect(await stopService(second)).toEqual({ code: 0, signal: null });
  }, 60_000);
});

describe('restart after SIGKILL of the whole process group', () => {
  it('keeps the data written before the crash', async () => {
    const dataDir = newDataDir();
    const first = await startService({ dataDir });
    const devKey = readFileSync(path.join(dataDir, 'dev-api-key'), 'utf8').trim();
    const key = await issueKey(first, 'survivor', 'enterprise');
    expect((await call(first, 'GET', '/user/plan', { key })).status).toBe(200);
    const pm = postmaster(dataDir)!;

    killGroup(first);
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await waitFor(() => !isAlive(pm.pid), 10_000, 'PostgreSQL survived SIGKILL of the group');
    expect(existsSync(pidFile(dataDir))).toBe(true); // stale: the cluster never shut down

    const second = await startService({ dataDir });
    expect(second.stdout()).not.toMatch(/dev api key/);
    const plan = await call(second, 'GET', '/user/plan', { key });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ user_id: 'survivor', plan_code: 'enterprise' });
    expect((await call(second, 'GET', '/user/plan', { key: devKey })).status).toBe(200);
    expect(await stopService(second)).toEqual({ code: 0, signal: null });
  }, 60_000);
});

describe('SIGTERM during start-up', () => {
  it('lets the cluster being created come up, stops it, exits 0, and leaves a usable data directory', async () => {
    const dataDir = newDataDir();
    const service = spawnService({ dataDir });
    // initdb is running: the embedded cluster is being created.
    await waitFor(() => existsSync(path.join(dataDir, 'pg')), 20_000, 'the cluster directory never appeared');
    service.child.kill('SIGTERM');
    expect(await withTimeout(service.exited, 20_000, 'no exit after SIGTERM during start-up')).toEqual({ code: 0, signal: null });
    const pm = postmaster(dataDir);
    if (pm) expect(isAlive(pm.pid)).toBe(false);

    const again = await startService({ dataDir });
    expect((await call(again, 'GET', '/readyz')).status).toBe(200);
    expect(await stopService(again)).toEqual({ code: 0, signal: null });
  }, 60_000);
});
