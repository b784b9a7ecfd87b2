import { existsSync } from 'node:fs';
import { UUID_RE } from '../support/fixtures.js';
import {
  APIKEY_CLI,
  call,
  isAlive,
  killAll,
  newDataDir,
  pidFile,
  postmaster,
  removeDataDirs,
  spawnNode,
  startService,
  stopService,
  withTimeout,
  type ServiceProcess,
} from '../system/support/process.js';

afterEach(killAll);
afterAll(removeDataDirs);

async function apikey(dataDir: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; cli: ServiceProcess }> {
  const cli = spawnNode(APIKEY_CLI, args, { LEDGER_DATA_DIR: dataDir });
  const exit = await withTimeout(cli.exited, 30_000, 'apikey CLI did not exit');
  return { code: exit.code, stdout: cli.stdout(), stderr: cli.stderr(), cli };
}

describe('apikey CLI', () => {
  it('issues a key through the running service’s embedded cluster, and also with the service stopped', async () => {
    const dataDir = newDataDir();
    const service = await startService({ dataDir });
    const pm = postmaster(dataDir)!;

    const live = await apikey(dataDir, '--owner', 'cli-owner', '--plan', 'starter');
    expect(live.stderr).toBe('');
    expect(live.code).toBe(0);
    const lines = live.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const issued = JSON.parse(lines[0]);
    expect(issued).toEqual({ api_key: expect.stringMatching(/^lk_/), id: expect.stringMatching(UUID_RE), owner: 'cli-owner', plan_code: 'starter' });

    // Same cluster, still running: the CLI neither started a second one nor stopped this one.
    expect(postmaster(dataDir)).toEqual(pm);
    expect(isAlive(pm.pid)).toBe(true);
    expect((await call(service, 'GET', '/readyz')).status).toBe(200);
    const plan = await call(service, 'GET', '/user/plan', { key: issued.api_key });
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ user_id: 'cli-owner', plan_code: 'starter' });
    // The id the CLI answered is the key's: the admin API lists it with the key's prefix, and revokes it.
    const listed = await call(service, 'GET', '/admin/api-keys?owner=cli-owner', { admin: true });
    expect(listed.body.keys).toEqual([expect.objectContaining({ id: issued.id, prefix: issued.api_key.slice(0, 8) })]);
    expect((await call(service, 'DELETE', `/admin/api-keys/${issued.id}`, { admin: true })).status).toBe(200);
    expect((await call(service, 'GET', '/user/plan', { key: issued.api_key })).status).toBe(401);

    // Errors: usage (2) and an unknown plan (1), nothing on stdout.
    const usage = await apikey(dataDir, '--owner', 'x');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/usage/);
    const badPlan = await apikey(dataDir, '--owner', 'x', '--plan', 'gold');
    expect(badPlan.code).toBe(1);
    expect(badPlan.stdout).toBe('');
    expect(badPlan.stderr).toMatch(/free, starter, pro, enterprise/);

    expect(await stopService(service)).toEqual({ code: 0, signal: null });

    // Service stopped: the CLI runs the cluster itself and stops it again.
    const offline = await apikey(dataDir, '--owner', 'offline-owner', '--plan', 'free');
    expect(offline.code).toBe(0);
    const offlineKey = JSON.parse(offline.stdout).api_key as string;
    expect(existsSync(pidFile(dataDir))).toBe(false);

    const again = await startService({ dataDir });
    const offlinePlan = await call(again, 'GET', '/user/plan', { key: offlineKey });
    expect(offlinePlan.body).toMatchObject({ user_id: 'offline-owner', plan_code: 'free' });
    expect(await stopService(again)).toEqual({ code: 0, signal: null });
  }, 60_000);
});
