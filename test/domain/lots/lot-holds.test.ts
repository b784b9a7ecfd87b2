import { LotRepository } from '../../../src/domain/lots/lot.repository.js';
import { expectStatus, fundedProject, transfer, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Holds and lots (CONTRACT §15 with §10) through the real verbs: a pending hold reserves from
 * lots earliest expiry first and its points do not expire while it is pending; a capture consumes
 * them; a void, a partial capture's rest and the hold's own expiry release them, and a released
 * part of a lot already past its expiry expires at that instant. Amounts: a 0-fraction asset.
 */
let t: TestApp;
let lots: LotRepository;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  lots = new LotRepository(t.db);
});
afterAll(() => t.close());

interface Setup {
  f: FundedProject;
  wallet: string;
  other: string;
  /** The wallet's lots in creation order (ids as text); lot i expires (i + 1) × 100 s from now. */
  lotIds: string[];
}

/** A customer with one lot per amount and `unlotted` credited before the asset had an expiry. */
async function setup(owner: string, amounts: number[], unlotted = 0): Promise<Setup> {
  const key = await t.issueKey(owner, 'enterprise');
  const f = await fundedProject(t, key, { customers: 2, fractions: 0, systemBalance: '1000' });
  const [wallet, other] = f.customers.map((c) => c.id);
  if (unlotted > 0) await transfer(t, f, f.system.id, wallet, unlotted);
  await expectStatus(t.request('PUT', `/assets/${f.assetId}`, { key, body: { expiresAfterSeconds: 3600 } }), 200);
  for (const amount of amounts) await transfer(t, f, f.system.id, wallet, amount);
  const rows = await t.db.query<{ id: string }>(`SELECT id::text FROM lots l WHERE wallet_id = $1 ORDER BY l.id`, [wallet]);
  for (const [i, row] of rows.entries()) await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) + make_interval(secs => $2) WHERE id = $1`, [row.id, 100 * (i + 1)]);
  return { f, wallet, other, lotIds: rows.map((r) => r.id) };
}

const hold = async (s: Setup, amount: number) =>
  (await expectStatus(t.request('POST', '/holds', { key: s.f.key, body: { amount, currency: s.f.symbol, from: s.wallet, to: s.other, projectId: s.f.projectId } }), 201)).hold;
const capture = (s: Setup, id: string, amount?: number) =>
  expectStatus(t.request('POST', `/holds/${id}/capture`, { key: s.f.key, body: { projectId: s.f.projectId, ...(amount !== undefined && { amount }) } }), 201);
const voidHold = async (s: Setup, id: string) => (await expectStatus(t.request('POST', `/holds/${id}/void`, { key: s.f.key, body: { projectId: s.f.projectId } }), 200)).hold;

const lotState = async (s: Setup) =>
  (await t.db.query<{ remaining: string; held: string }>(`SELECT remaining::text, held::text FROM lots WHERE wallet_id = $1 ORDER BY id`, [s.wallet])).map((l) => `${l.remaining}/${l.held}`);
const balance = async (s: Setup) => (await t.db.query<{ amount: string; held: string }>(`SELECT amount::text, held::text FROM balances WHERE wallet_id = $1`, [s.wallet]))[0];
const expiries = (s: Setup) =>
  t.db.query<{ amount: string; lot_id: string; created_at: Date; from_balance: string }>(
    `SELECT amount::text, lot_id::text, created_at, from_balance::text FROM transactions WHERE from_wallet_id = $1 AND kind = 'expiry' ORDER BY seq`,
    [s.wallet],
  );
const makeDue = (lotId: string, secondsAgo = 0) =>
  t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) - make_interval(secs => $2) WHERE id = $1`, [lotId, secondsAgo]);

describe('a pending hold reserves from lots, the one expiring first first', () => {
  it('marks the lots held; a transfer then spends only what is not held, and funds without a lot last', async () => {
    const s = await setup('holds-reserve', [10, 10], 5);
    const h = await hold(s, 15);
    expect(await lotState(s)).toEqual(['10/10', '10/5']);
    await transfer(t, s.f, s.wallet, s.other, 7); // 5 free in the second lot, then 2 of the 5 without a lot
    expect(await lotState(s)).toEqual(['10/10', '5/5']);
    const reserved = await t.db.query<{ lot_id: string; amount: string }>(`SELECT lot_id::text, amount::text FROM hold_lots r WHERE hold_id = $1 ORDER BY r.lot_id`, [h.id]);
    expect(reserved).toEqual([
      { lot_id: s.lotIds[0], amount: '10' },
      { lot_id: s.lotIds[1], amount: '5' },
    ]);
  });

  it('reserves beyond the lots from the funds without a lot', async () => {
    const s = await setup('holds-reserve-beyond', [4], 10);
    await hold(s, 9);
    expect(await lotState(s)).toEqual(['4/4']);
  });

  it('expired points never fund a hold: the lot expires first, and the hold is refused', async () => {
    const s = await setup('holds-reserve-expired', [10]);
    await makeDue(s.lotIds[0]);
    const res = await t.request('POST', '/holds', { key: s.f.key, body: { amount: 5, currency: s.f.symbol, from: s.wallet, to: s.other, projectId: s.f.projectId } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('insufficient_funds');
    expect((await expiries(s)).map((e) => e.amount)).toEqual(['10']);
  });
});

describe('reserved points do not expire while the hold is pending', () => {
  it('expires only the unreserved part of a due lot; the void then expires the released part at that instant', async () => {
    const s = await setup('holds-expire', [10, 10]);
    const h = await hold(s, 6);
    await makeDue(s.lotIds[0], 1);
    expect((await lots.sweep(100)).expired).toBe(1);
    expect(await lotState(s)).toEqual(['6/6', '10/0']);
    expect((await expectStatus(t.request('GET', `/wallets/${s.wallet}/lots`, { key: s.f.key }), 200)).lots.map((l: any) => l.remaining)).toEqual([10]);
    const voided = await voidHold(s, h.id);
    const [, released] = await expiries(s);
    expect(released).toMatchObject({ amount: '6', lot_id: s.lotIds[0], from_balance: '10' });
    expect(released.created_at.toISOString()).toBe(voided.updated_at); // dated the void, not the lot's expiry
    expect(await lotState(s)).toEqual(['0/0', '10/0']);
    expect(await balance(s)).toEqual({ amount: '10', held: '0' });
    expect(await t.db.query(`SELECT 1 FROM hold_lots WHERE hold_id = $1`, [h.id])).toEqual([]);
  });

  it('a void releases lots that are not due without expiring anything', async () => {
    const s = await setup('holds-void', [10]);
    const h = await hold(s, 10);
    await voidHold(s, h.id);
    expect(await lotState(s)).toEqual(['10/0']);
    expect(await expiries(s)).toEqual([]);
  });
});

describe('a capture consumes what its hold reserved, then releases the rest', () => {
  it('consumes reserved points of an expired lot, earliest first; the rest of a lot that is not due is released without expiry', async () => {
    const s = await setup('holds-capture', [10, 10]);
    const h = await hold(s, 15);
    await makeDue(s.lotIds[0]);
    await capture(s, h.id, 12);
    expect(await lotState(s)).toEqual(['0/0', '8/0']);
    expect(await expiries(s)).toEqual([]);
    expect(await balance(s)).toEqual({ amount: '8', held: '0' });
  });

  it('a partial capture releases the uncaptured rest, and a released part of an expired lot expires at the capture', async () => {
    const s = await setup('holds-capture-partial', [10, 10]);
    const h = await hold(s, 15);
    await makeDue(s.lotIds[0], 1);
    const captured = await capture(s, h.id, 4);
    const [expiry] = await expiries(s);
    expect(expiry).toMatchObject({ amount: '6', lot_id: s.lotIds[0], from_balance: '10' });
    expect(expiry.created_at.toISOString()).toBe(captured.transaction.date);
    expect(await lotState(s)).toEqual(['0/0', '10/0']);
    expect(await balance(s)).toEqual({ amount: '10', held: '0' });
  });
});

describe("a hold's own expiry", () => {
  /** Lots due 10 s, 7 s and 2 s ago; a hold on the first lot expired 5 s ago. */
  async function expiredHold(owner: string): Promise<{ s: Setup; expiredAt: Date; id: string }> {
    const s = await setup(owner, [10, 10, 10]);
    const h = await hold(s, 4);
    await makeDue(s.lotIds[0], 10);
    await makeDue(s.lotIds[1], 7);
    await makeDue(s.lotIds[2], 2);
    const [{ at }] = await t.db.query<{ at: Date }>(`UPDATE holds SET expires_at = clock_timestamp()::timestamptz(3) - interval '5 seconds' WHERE id = $1 RETURNING expires_at AS at`, [h.id]);
    return { s, expiredAt: at, id: h.id };
  }

  const expectReleasedAt = async (s: Setup, expiredAt: Date) => {
    const posted = await expiries(s);
    expect(posted.map((e) => [e.lot_id, e.amount, e.from_balance])).toEqual([
      [s.lotIds[0], '6', '24'],
      [s.lotIds[1], '10', '14'],
      [s.lotIds[0], '4', '10'], // the reserved part, at the hold's expiry
      [s.lotIds[2], '10', '0'],
    ]);
    expect(posted[2].created_at.getTime()).toBe(expiredAt.getTime());
    const dates = posted.map((e) => e.created_at.getTime());
    expect([...dates].sort((a, b) => a - b)).toEqual(dates);
  };

  it('releases its lots as of its expires_at before a later posting touches the wallet, in date order', async () => {
    const { s, expiredAt, id } = await expiredHold('holds-expiry');
    await transfer(t, s.f, s.f.system.id, s.wallet, 1);
    await expectReleasedAt(s, expiredAt);
    expect(await balance(s)).toEqual({ amount: '1', held: '0' });
    expect((await expectStatus(t.request('GET', `/holds/${id}`, { key: s.f.key }), 200)).hold.status).toBe('expired');
  });

  it.each(['void', 'capture'])('is settled when a %s refuses it (hold_expired), in date order, nothing left reserved for the sweeper', async (verb) => {
    const { s, expiredAt, id } = await expiredHold(`holds-expiry-${verb}`);
    const res = await t.request('POST', `/holds/${id}/${verb}`, { key: s.f.key, body: { projectId: s.f.projectId } });
    expect([res.status, res.body.code]).toEqual([409, 'hold_expired']);
    await expectReleasedAt(s, expiredAt);
    expect(await balance(s)).toEqual({ amount: '0', held: '0' });
    expect(await t.db.query(`SELECT hold_id FROM hold_lots WHERE hold_id = $1`, [id])).toEqual([]);
    expect((await lots.sweep(100)).expired).toBe(0);
  });

  it('is settled before the sweeper expires later lots of its wallet, even when other holds fill the round', async () => {
    // three holds elsewhere, expired earlier, fill the round's first part (holds past expiry, at most 3);
    // its second part then reaches all three due lots of the wallet, the last one due after the hold
    for (const owner of ['holds-expiry-crowd-1', 'holds-expiry-crowd-2', 'holds-expiry-crowd-3']) {
      const crowd = await setup(owner, [10]);
      const other = await hold(crowd, 1);
      await t.db.query(`UPDATE holds SET expires_at = clock_timestamp()::timestamptz(3) - interval '20 seconds' WHERE id = $1`, [other.id]);
    }
    const { s, expiredAt } = await expiredHold('holds-expiry-crowded');
    expect((await lots.sweep(3)).expired).toBeGreaterThanOrEqual(3);
    while ((await lots.sweep(3)).expired > 0);
    await expectReleasedAt(s, expiredAt);
    expect(await balance(s)).toEqual({ amount: '0', held: '0' });
  });

  it('is settled by the sweeper when nothing touches the wallet', async () => {
    const { s, expiredAt } = await expiredHold('holds-expiry-sweep');
    expect((await lots.sweep(100)).expired).toBe(4);
    await expectReleasedAt(s, expiredAt);
    expect(await balance(s)).toEqual({ amount: '0', held: '0' });
  });
});
