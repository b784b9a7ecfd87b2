import { expectStatus, fundedProject, transfer } from '../support/fixtures.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The expiry sweeper on GET /metrics (CONTRACT §15, §17): its interval, batch size, lag and work. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 250 } });
});
afterAll(() => t.close());

const scrape = async () => (await fetch(`${t.baseUrl}/metrics`)).text();
const sample = (text: string, name: string) => Number(text.split('\n').find((l) => l.startsWith(name + ' '))?.slice(name.length + 1));

describe('lot sweeper metrics', () => {
  it('show the settings, and the lag and count of the last sweep', async () => {
    let text = await scrape();
    expect(sample(text, 'ledger_lot_sweep_interval_seconds')).toBe(0);
    expect(sample(text, 'ledger_lot_sweep_batch_size')).toBe(250);
    expect(sample(text, 'ledger_lot_sweep_expired_total')).toBe(0);

    const key = await t.issueKey('sweep-metrics', 'pro');
    const f = await fundedProject(t, key, { customers: 1 });
    await expectStatus(t.request('PUT', `/assets/${f.assetId}`, { key, body: { expiresAfterSeconds: 3600 } }), 200);
    await transfer(t, f, f.system.id, f.customers[0].id, 1);
    await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) - interval '3 seconds' WHERE project_id = $1`, [f.projectId]);
    await t.app.services.expirySweeper.sweepOnce();

    text = await scrape();
    expect(sample(text, 'ledger_lot_sweep_expired_total')).toBe(1);
    expect(sample(text, 'ledger_lot_sweeps_total')).toBe(1);
    expect(sample(text, 'ledger_lot_sweep_lag_seconds')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'ledger_lot_sweep_lag_seconds')).toBeLessThan(60);
  });
});
