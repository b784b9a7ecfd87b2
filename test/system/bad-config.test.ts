import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';
import { killAll, newDataDir, removeDataDirs, spawnService, withTimeout } from './support/process.js';

afterAll(killAll);
afterAll(removeDataDirs);

describe('bad configuration', () => {
  it.concurrent.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['HOST', 'two words'],
    ['LEDGER_AUTO_MIGRATE', 'maybe'],
    ['LEDGER_CLUSTER_TEMPLATE', 'off'],
    ['LEDGER_EXPOSE_STATEMENT_COUNT', 'yes'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://localhost/ledger'],
    ['LEDGER_ADMIN_TOKEN', 'short'],
    ['LEDGER_DB_POOL_SIZE', '0'],
    ['LEDGER_STATEMENT_TIMEOUT_MS', '99'], // 100–600000
    ['LEDGER_STATEMENT_TIMEOUT_MS', '600001'],
    ['LEDGER_SHUTDOWN_GRACE_MS', '-1'],
    ['LEDGER_SHUTDOWN_GRACE_MS', '25001'], // the process ends within 30 s of SIGTERM
    ['LEDGER_GRAPHQL_MAX_COST', '0'],
    ['LEDGER_GRAPHQL_MAX_COST', 'lots'],
    ['LEDGER_LOT_SWEEP_INTERVAL_MS', '60000'], // over 50 s: expiries are due within 60 s
    ['LEDGER_LOT_SWEEP_BATCH', '0'],
    ['LEDGER_WEBHOOK_ALLOW_PRIVATE', 'maybe'],
    ['LEDGER_WEBHOOK_MAX_ATTEMPTS', '3'], // at least 6 attempts
  ])('%s=%s exits non-zero, names the variable, and touches nothing', async (name, value) => {
    const dataDir = path.join(newDataDir(), 'not-created');
    const service = spawnService({ dataDir, env: { [name]: value } });
    const exit = await withTimeout(service.exited, 15_000, 'service did not exit');
    expect(exit.signal).toBeNull();
    expect(exit.code).toBe(2);
    expect(service.stderr()).toContain(`invalid configuration: ${name}`);
    expect(service.stdout()).not.toMatch(/listening on/);
    expect(existsSync(dataDir)).toBe(false); // refused before any database was started
  }, 30_000);
});

describe('LEDGER_STATEMENT_TIMEOUT_MS', () => {
  it('is 5000 by default and may be set from 100 to 600000', () => {
    expect(loadConfig({}).statementTimeoutMs).toBe(5_000);
    expect(loadConfig({ LEDGER_STATEMENT_TIMEOUT_MS: '100' }).statementTimeoutMs).toBe(100);
    expect(loadConfig({ LEDGER_STATEMENT_TIMEOUT_MS: '600000' }).statementTimeoutMs).toBe(600_000);
    expect(() => loadConfig({ LEDGER_STATEMENT_TIMEOUT_MS: '99' })).toThrow(ConfigError);
    expect(() => loadConfig({ LEDGER_STATEMENT_TIMEOUT_MS: '600001' })).toThrow(ConfigError);
  });
});
