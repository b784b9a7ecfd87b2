import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Prometheus naming on GET /metrics: a running total is a counter named `…_total` (so `rate()`
 * and counter resets work), and a gauge is never named like one.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function types(): Promise<Map<string, string>> {
  const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
}

describe('metric names and types', () => {
  it('the running totals of the sweeper and the delivery worker are counters ending in _total', async () => {
    const byName = await types();
    for (const name of ['ledger_lot_sweep_expired_total', 'ledger_lot_sweeps_total', 'ledger_webhook_deliveries_abandoned_total']) {
      expect({ name, type: byName.get(name) }).toEqual({ name, type: 'counter' });
    }
    for (const old of ['ledger_lot_sweep_expired', 'ledger_lot_sweeps', 'ledger_webhook_deliveries_abandoned']) expect(byName.has(old)).toBe(false);
  });

  it('every ledger counter ends in _total and no gauge does', async () => {
    const ledger = [...(await types())].filter(([name]) => name.startsWith('ledger_'));
    expect(ledger.filter(([name, type]) => (type === 'counter') !== name.endsWith('_total'))).toEqual([]);
  });
});
