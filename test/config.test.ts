import { ConfigError, loadConfig } from '../src/config.js';
import { retryDelayMs } from '../src/domain/webhook-endpoints/backoff.js';

/**
 * CONTRACT §1/§17: a configuration that would break the contract is refused at start, naming the
 * variable. The bounds come from the contract: outbound retries (§16) start within 30 s and
 * span at least 6 attempts over at least 1 hour, whatever the jitter draws; hold.expired (§16) is
 * written within 60 s, so the sweeper cannot be turned off.
 */
const refusal = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('configuration bounds derived from the contract', () => {
  it.each([
    [{ LEDGER_WEBHOOK_RETRY_BASE_MS: '1' }, 'LEDGER_WEBHOOK_RETRY_BASE_MS', /at least 1 hour/],
    [{ LEDGER_WEBHOOK_MAX_ATTEMPTS: '6' }, 'LEDGER_WEBHOOK_MAX_ATTEMPTS', /at least 1 hour/], // 6 attempts from 10 s span about 20 min
    [{ LEDGER_WEBHOOK_RETRY_BASE_MS: '27000', LEDGER_WEBHOOK_MAX_ATTEMPTS: '6' }, 'LEDGER_WEBHOOK_RETRY_BASE_MS', /at least 1 hour/],
    [{ LEDGER_WEBHOOK_RETRY_BASE_MS: '28000' }, 'LEDGER_WEBHOOK_RETRY_BASE_MS', /between 1 and 27000/], // its jitter would pass 30 s
    [{ LEDGER_LOT_SWEEP_INTERVAL_MS: '0' }, 'LEDGER_LOT_SWEEP_INTERVAL_MS', /between 1 and 50000/],
  ])('refuses %j, naming %s', (env, variable, problem) => {
    const message = refusal(env);
    expect(message).toContain(`invalid configuration: ${variable}`);
    expect(message).toMatch(problem);
  });

  it('accepts the defaults and the tightest schedules that keep the contract', () => {
    expect(loadConfig({}).webhooks).toMatchObject({ retryBaseMs: 10_000, maxAttempts: 8 });
    for (const env of [{ LEDGER_WEBHOOK_RETRY_BASE_MS: '27000', LEDGER_WEBHOOK_MAX_ATTEMPTS: '7' }, { LEDGER_WEBHOOK_RETRY_BASE_MS: '3700' }]) {
      const { retryBaseMs: baseMs, maxAttempts } = loadConfig(env).webhooks;
      // the worst draws of the jitter: the first retry as late as it gets, every delay as short as it gets
      expect(retryDelayMs({ baseMs, maxAttempts }, 1, () => 1)).toBeLessThanOrEqual(30_000);
      let span = 0;
      for (let failed = 1; failed < maxAttempts; failed++) span += retryDelayMs({ baseMs, maxAttempts }, failed, () => 0);
      expect(span).toBeGreaterThanOrEqual(3_600_000);
    }
    expect(loadConfig({ LEDGER_LOT_SWEEP_INTERVAL_MS: '1' }).lotSweep.intervalMs).toBe(1);
  });
});
