import { expectStatus, fundedProject, seed, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * CONTRACT §20: a monitor crosses when a committed change takes `field operator value` from false
 * to true, judged on the wallet's values just before and just after it; one
 * `balance.threshold_crossed` event per crossing, in the change's transaction.
 */
let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  key = await t.issueKey('monitors-owner', 'enterprise');
});
afterAll(() => t.close());

const monitor = (p: FundedProject, body: Record<string, unknown>) =>
  expectStatus(t.request('POST', '/balance-monitors', { key: p.key, body: { projectId: p.projectId, currency: p.symbol, ...body } }), 201).then((b) => b.monitor);

/** The project's crossings so far, oldest first (their event data). */
async function crossings(p: FundedProject): Promise<any[]> {
  const out: any[] = [];
  let after = 0;
  for (;;) {
    const page = await expectStatus(t.request('GET', `/events?projectId=${p.projectId}&after=${after}&limit=100`, { key: p.key }), 200);
    out.push(...page.events.filter((e: any) => e.type === 'balance.threshold_crossed').map((e: any) => e.data));
    if (!page.pagination.hasMore) return out;
    after = page.pagination.nextAfter;
  }
}

describe('balance crossings', () => {
  it('fires once when a debit takes the balance below the threshold, not again while it stays below, again after it was above', async () => {
    const p = await fundedProject(t, key, { customers: 2 });
    const [alice, bob] = p.customers;
    await transfer(t, p, p.system.id, alice.id, 100);
    const m = await monitor(p, { walletId: alice.id, field: 'balance', operator: 'lt', value: 50 });
    expect(await crossings(p)).toEqual([]);

    const first = await transfer(t, p, alice.id, bob.id, 60); // 100 → 40: crosses
    await transfer(t, p, alice.id, bob.id, 10); // 40 → 30: still below
    await transfer(t, p, bob.id, alice.id, 20); // 30 → 50: not below
    const again = await transfer(t, p, alice.id, bob.id, 0.01); // 50 → 49.99: crosses again
    expect(await crossings(p)).toEqual([
      { monitorId: m.id, walletId: alice.id, address: alice.address, currency: p.symbol, field: 'balance', operator: 'lt', value: 50, previous: 100, current: 40, transactionId: first.transaction.id, holdId: null },
      { monitorId: m.id, walletId: alice.id, address: alice.address, currency: p.symbol, field: 'balance', operator: 'lt', value: 50, previous: 50, current: 49.99, transactionId: again.transaction.id, holdId: null },
    ]);
  });

  it('judges each operator at its edge (lte at the value, gt and gte going up)', async () => {
    const p = await fundedProject(t, key, { customers: 2 });
    const [alice, bob] = p.customers;
    const lte = await monitor(p, { walletId: alice.id, field: 'balance', operator: 'lte', value: 0 });
    const gt = await monitor(p, { walletId: alice.id, field: 'balance', operator: 'gt', value: 10 });
    const gte = await monitor(p, { walletId: alice.id, field: 'balance', operator: 'gte', value: 10 });
    await transfer(t, p, p.system.id, alice.id, 10); // 0 → 10: gte crosses, gt not, lte was true already (a new wallet starts at 0)
    await transfer(t, p, p.system.id, alice.id, 5); // 10 → 15: gt crosses
    await transfer(t, p, alice.id, bob.id, 15); // 15 → 0: lte crosses
    expect((await crossings(p)).map((c) => [c.monitorId, c.previous, c.current])).toEqual([
      [gte.id, 0, 10],
      [gt.id, 10, 15],
      [lte.id, 15, 0],
    ]);
  });

  it('creating a monitor whose condition already holds fires nothing', async () => {
    const p = await fundedProject(t, key, { customers: 1 });
    await monitor(p, { walletId: p.customers[0].id, field: 'balance', operator: 'lt', value: 5 });
    await monitor(p, { field: 'available', operator: 'lte', value: 0 });
    expect(await crossings(p)).toEqual([]);
  });

  it('a project-wide monitor watches every customer wallet and no system wallet; a wallet monitor only its wallet', async () => {
    const p = await fundedProject(t, key, { customers: 2, systemBalance: 100 });
    const [alice, bob] = p.customers;
    const all = await monitor(p, { field: 'balance', operator: 'gte', value: 20 });
    const own = await monitor(p, { walletId: bob.id, field: 'balance', operator: 'gte', value: 5 });
    const system = await monitor(p, { walletId: p.system.id, field: 'balance', operator: 'lt', value: 60 });
    await transfer(t, p, p.system.id, alice.id, 30); // system 100 → 70, alice 0 → 30
    await transfer(t, p, p.system.id, bob.id, 20); // system 70 → 50, bob 0 → 20
    const seen = (await crossings(p)).map((c) => [c.monitorId, c.address]);
    expect(seen).toEqual([
      [all.id, alice.address],
      [system.id, p.system.address],
      [all.id, bob.address],
      [own.id, bob.address],
    ]);
  });

  it('judges each batch leg on its own, in order', async () => {
    const p = await fundedProject(t, key, { customers: 2 });
    const [alice, bob] = p.customers;
    await transfer(t, p, p.system.id, alice.id, 100);
    const m = await monitor(p, { walletId: alice.id, field: 'balance', operator: 'lt', value: 50 });
    const batch = await expectStatus(
      t.request('POST', '/transactions/batch', {
        key,
        body: {
          projectId: p.projectId,
          transfers: [
            { amount: 60, currency: p.symbol, from: alice.id, to: bob.id }, // 100 → 40: crosses
            { amount: 30, currency: p.symbol, from: bob.id, to: alice.id }, // 40 → 70
            { amount: 25, currency: p.symbol, from: alice.id, to: bob.id }, // 70 → 45: crosses
          ],
        },
      }),
      201,
    );
    expect((await crossings(p)).map((c) => [c.monitorId, c.previous, c.current, c.transactionId])).toEqual([
      [m.id, 100, 40, batch.transactions[0].id],
      [m.id, 70, 45, batch.transactions[2].id],
    ]);
  });

  it('seeds, reversals and webhook flows cross like transfers', async () => {
    const p = await fundedProject(t, key, { customers: 1, systemBalance: 0 });
    const [alice] = p.customers;
    const low = await monitor(p, { walletId: p.system.id, field: 'balance', operator: 'gte', value: 60 });
    const rich = await monitor(p, { walletId: alice.id, field: 'balance', operator: 'gte', value: 40 });
    const poor = await monitor(p, { walletId: alice.id, field: 'balance', operator: 'lt', value: 40 });
    const seeded = await seed(t, p, p.system.id, 100);
    const reward = await expectStatus(t.request('POST', '/webhook', { key, body: { flowId: 'reward', projectId: p.projectId, values: { to: alice.id, amount: 50 } } }), 200);
    expect(reward.success).toBe(true);
    const [rewarded] = (await expectStatus(t.request('GET', `/transactions?walletId=${alice.id}&projectId=${p.projectId}`, { key }), 200)).transactions;
    const reversal = await expectStatus(t.request('POST', `/transactions/${rewarded.id}/reverse`, { key, body: { projectId: p.projectId, amount: 20 } }), 201);
    expect((await crossings(p)).map((c) => [c.monitorId, c.previous, c.current, c.transactionId])).toEqual([
      [low.id, 0, 100, seeded.transaction[0].id],
      [rich.id, 0, 50, rewarded.id],
      // one movement judges its sender (alice, back to 30) before its receiver (the system wallet, up to 70)
      [poor.id, 50, 30, reversal.transaction.id],
      [low.id, 50, 70, reversal.transaction.id],
    ]);
  });

  it('available crosses at hold creation, void, capture and the hold.expired of its expiry; balance only at the capture', async () => {
    const p = await fundedProject(t, key, { customers: 2 });
    const [alice, bob] = p.customers;
    await transfer(t, p, p.system.id, alice.id, 100);
    const low = await monitor(p, { walletId: alice.id, field: 'available', operator: 'lt', value: 50 });
    const high = await monitor(p, { walletId: alice.id, field: 'available', operator: 'gte', value: 50 });
    const posted = await monitor(p, { walletId: alice.id, field: 'balance', operator: 'lt', value: 90 });
    const hold = (body: Record<string, unknown>) => expectStatus(t.request('POST', '/holds', { key, body: { amount: 60, currency: p.symbol, from: alice.id, to: bob.id, projectId: p.projectId, ...body } }), 201).then((b) => b.hold);

    const voided = await hold({}); // available 100 → 40
    await expectStatus(t.request('POST', `/holds/${voided.id}/void`, { key, body: { projectId: p.projectId } }), 200); // 40 → 100
    const captured = await hold({}); // 100 → 40
    const capture = await expectStatus(t.request('POST', `/holds/${captured.id}/capture`, { key, body: { projectId: p.projectId, amount: 10 } }), 201); // balance 100 → 90 (not < 90), available 40 → 90
    const expiring = await hold({ expiresIn: 3600 }); // 90 → 30
    await t.db.query(`UPDATE holds SET expires_at = clock_timestamp()::timestamptz(3) - interval '1 second' WHERE id = $1`, [expiring.id]);
    await t.app.services.expirySweeper.sweepOnce(); // hold.expired: 30 → 90

    const seen = (await crossings(p)).map((c) => [c.monitorId, c.field, c.previous, c.current, c.transactionId, c.holdId]);
    expect(seen).toEqual([
      [low.id, 'available', 100, 40, null, voided.id],
      [high.id, 'available', 40, 100, null, voided.id],
      [low.id, 'available', 100, 40, null, captured.id],
      [high.id, 'available', 40, 90, capture.transaction.id, captured.id],
      [low.id, 'available', 90, 30, null, expiring.id],
      [high.id, 'available', 30, 90, null, expiring.id],
    ]);
    expect(seen.some(([id]) => id === posted.id)).toBe(false);
  });

  it('the expiry of points crosses the balance, naming the expiry transaction', async () => {
    const p = await fundedProject(t, key, { customers: 1 });
    const [alice] = p.customers;
    await expectStatus(t.request('PUT', `/assets/${p.assetId}`, { key, body: { expiresAfterSeconds: 3600 } }), 200);
    await transfer(t, p, p.system.id, alice.id, 30);
    const m = await monitor(p, { walletId: alice.id, field: 'balance', operator: 'lte', value: 0 });
    await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) - interval '1 second' WHERE wallet_id = $1`, [alice.id]);
    await t.app.services.expirySweeper.sweepOnce();
    const [expiry] = (await expectStatus(t.request('GET', `/transactions?walletId=${alice.id}&projectId=${p.projectId}`, { key }), 200)).transactions;
    expect(expiry.to).toBe('@expired');
    expect((await crossings(p)).map((c) => [c.monitorId, c.previous, c.current, c.transactionId, c.holdId])).toEqual([[m.id, 30, 0, expiry.id, null]]);
  });

  it('a refused posting and a dry run fire nothing; a deleted monitor fires no more', async () => {
    const p = await fundedProject(t, key, { customers: 2 });
    const [alice, bob] = p.customers;
    await transfer(t, p, p.system.id, alice.id, 100);
    const m = await monitor(p, { walletId: alice.id, field: 'balance', operator: 'lt', value: 50 });
    const body = { amount: 60, currency: p.symbol, from: alice.id, to: bob.id, projectId: p.projectId };
    await expectStatus(t.request('POST', '/transactions?dryRun=true', { key, body }), 200);
    await expectStatus(t.request('POST', '/transactions', { key, body: { ...body, amount: 101 } }), 409);
    await expectStatus(t.request('POST', '/holds?dryRun=true', { key, body }), 200);
    expect(await crossings(p)).toEqual([]);
    await expectStatus(t.request('DELETE', `/balance-monitors/${m.id}`, { key }), 200);
    await transfer(t, p, alice.id, bob.id, 60);
    expect(await crossings(p)).toEqual([]);
    const [{ monitors }] = await t.db.query<{ monitors: number }>(`SELECT monitors FROM assets WHERE id = $1`, [p.assetId]);
    expect(monitors).toBe(0);
  });
});
