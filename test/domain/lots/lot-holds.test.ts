import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { LedgerRepository } from '../../../src/domain/ledger/ledger.repository.js';
import { LotRepository } from '../../../src/domain/lots/lot.repository.js';
import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * Holds and lots (CONTRACT §15 with §10), at the level of the routines the hold verbs will call:
 * lots_reserve (create), lots_capture (capture), lots_release (void, expiry). A hold is played
 * here as its verbs will play it: under the sender's row lock, due expiries first.
 */
let t: TestApp;
let ledger: LedgerRepository;
let lots: LotRepository;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  ledger = new LedgerRepository(t.db);
  lots = new LotRepository(t.db);
});
afterAll(() => t.close());

interface Setup {
  f: FundedProject;
  wallet: string;
  /** The wallet's lots in creation order: ids as text. */
  lotIds: string[];
}

/** A customer with one lot per amount (expiring 100 s, 200 s, … from now) and `unlotted` without a lot. */
async function setup(owner: string, amounts: bigint[], unlotted = 0n): Promise<Setup> {
  const key = await t.issueKey(owner, 'enterprise');
  const f = await fundedProject(t, key, { customers: 2, systemBalance: '1000' });
  const wallet = f.customers[0].id;
  const credit = (amount: bigint) => ledger.post([{ projectId: f.projectId, assetId: f.assetId, fromWalletId: f.system.id, toWalletId: wallet, amount, requestKey: null }]);
  if (unlotted > 0n) await credit(unlotted);
  await expectStatus(t.request('PUT', `/assets/${f.assetId}`, { key, body: { expiresAfterSeconds: 3600 } }), 200);
  for (const amount of amounts) await credit(amount);
  const rows = await t.db.query<{ id: string }>(`SELECT id::text FROM lots WHERE wallet_id = $1 ORDER BY id`, [wallet]);
  for (const [i, row] of rows.entries()) await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) + make_interval(secs => $2) WHERE id = $1`, [row.id, 100 * (i + 1)]);
  return { f, wallet, lotIds: rows.map((r) => r.id) };
}

/** Runs `fn` as a hold verb would: one transaction, the wallet locked, its due lots expired first. */
async function asVerb<T>(s: Setup, fn: (client: pg.PoolClient, now: string) => Promise<T>): Promise<T> {
  return t.db.transaction(async (client) => {
    await client.query(`SELECT 1 FROM wallets WHERE id = $1 FOR NO KEY UPDATE`, [s.wallet]);
    const { rows } = await client.query<{ now: string }>(`SELECT clock_timestamp()::timestamptz(3)::text AS now`);
    await client.query(`SELECT lots_expire_due($1, $2, $3)`, [s.wallet, s.f.assetId, rows[0].now]);
    return fn(client, rows[0].now);
  });
}
const reserve = (s: Setup, hold: string, amount: bigint) =>
  asVerb(s, async (client, now) => (await client.query<{ r: string }>(`SELECT lots_reserve($1, $2, $3, $4, $5)::text AS r`, [hold, s.wallet, s.f.assetId, String(amount), now])).rows[0].r);
/** The capture's posting moves the balance; the lots follow through lots_capture. */
const capture = (s: Setup, hold: string, amount: bigint) =>
  asVerb(s, async (client, now) => {
    await client.query(`UPDATE balances SET amount = amount - $3 WHERE wallet_id = $1 AND asset_id = $2`, [s.wallet, s.f.assetId, String(amount)]);
    return (await client.query<{ r: string }>(`SELECT lots_capture($1, $2, $3, $4, $5)::text AS r`, [hold, s.wallet, s.f.assetId, String(amount), now])).rows[0].r;
  });
const release = (s: Setup, hold: string, at?: string) =>
  asVerb(s, async (client, now) => (await client.query<{ n: number }>(`SELECT lots_release($1, $2, $3, $4) AS n`, [hold, s.wallet, s.f.assetId, at ?? now])).rows[0].n);

const lotState = async (s: Setup) =>
  (await t.db.query<{ remaining: string; held: string }>(`SELECT remaining::text, held::text FROM lots WHERE wallet_id = $1 ORDER BY id`, [s.wallet])).map((l) => `${l.remaining}/${l.held}`);
const balance = async (s: Setup) => BigInt((await t.db.query<{ amount: string }>(`SELECT amount::text FROM balances WHERE wallet_id = $1`, [s.wallet]))[0].amount);
const expiries = (s: Setup) =>
  t.db.query<{ amount: string; lot_id: string; created_at: Date; from_balance: string }>(
    `SELECT amount::text, lot_id::text, created_at, from_balance::text FROM transactions WHERE from_wallet_id = $1 AND kind = 'expiry' ORDER BY seq`,
    [s.wallet],
  );
const makeDue = (lotId: string, secondsAgo = 0) =>
  t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) - make_interval(secs => $2) WHERE id = $1`, [lotId, secondsAgo]);
const debit = (s: Setup, amount: bigint) =>
  ledger.post([{ projectId: s.f.projectId, assetId: s.f.assetId, fromWalletId: s.wallet, toWalletId: s.f.customers[1].id, amount, requestKey: null }]);

describe('lots_reserve: a pending hold reserves from lots, the one expiring first first', () => {
  it('marks the lots held; a debit then spends only what is not held, and funds without a lot last', async () => {
    const s = await setup('holds-reserve', [10n, 10n], 5n);
    const hold = randomUUID();
    expect(await reserve(s, hold, 15n)).toBe('15');
    expect(await lotState(s)).toEqual(['10/10', '10/5']);
    expect((await debit(s, 7n))[0].code).toBe('ok'); // 5 free in the second lot, then 2 of the 5 without a lot
    expect(await lotState(s)).toEqual(['10/10', '5/5']);
    const reserved = await t.db.query<{ lot_id: string; amount: string }>(`SELECT lot_id::text, amount::text FROM hold_lots WHERE hold_id = $1 ORDER BY lot_id`, [hold]);
    expect(reserved).toEqual([
      { lot_id: s.lotIds[0], amount: '10' },
      { lot_id: s.lotIds[1], amount: '5' },
    ]);
  });

  it('reserves beyond the lots from the funds without a lot (nothing recorded for that part)', async () => {
    const s = await setup('holds-reserve-beyond', [4n], 10n);
    expect(await reserve(s, randomUUID(), 9n)).toBe('4');
    expect(await lotState(s)).toEqual(['4/4']);
  });
});

describe('reserved points do not expire while the hold is pending', () => {
  it('expires only the unreserved part of a due lot; the void then expires the released part at that instant', async () => {
    const s = await setup('holds-expire', [10n, 10n]);
    const hold = randomUUID();
    await reserve(s, hold, 6n);
    await makeDue(s.lotIds[0], 1);
    expect((await lots.sweep(100)).expired).toBe(1);
    expect(await lotState(s)).toEqual(['6/6', '10/0']);
    expect(await balance(s)).toBe(16n);
    const before = Date.now();
    expect(await release(s, hold)).toBe(1); // the void
    const [, released] = await expiries(s);
    expect(released).toMatchObject({ amount: '6', lot_id: s.lotIds[0], from_balance: '10' });
    expect(released.created_at.getTime()).toBeGreaterThanOrEqual(before - 5); // dated the void, not the lot's expiry
    expect(await lotState(s)).toEqual(['0/0', '10/0']);
    expect(await t.db.query(`SELECT 1 FROM hold_lots WHERE hold_id = $1`, [hold])).toEqual([]);
  });

  it('a void releases lots that are not due without expiring anything', async () => {
    const s = await setup('holds-void', [10n]);
    const hold = randomUUID();
    await reserve(s, hold, 10n);
    expect(await release(s, hold)).toBe(0);
    expect(await lotState(s)).toEqual(['10/0']);
    expect(await expiries(s)).toEqual([]);
  });
});

describe('lots_capture: a capture consumes what its hold reserved, then releases the rest', () => {
  it('consumes reserved points of an expired lot, earliest first, and releases the rest without expiry when nothing else is due', async () => {
    const s = await setup('holds-capture', [10n, 10n]);
    const hold = randomUUID();
    await reserve(s, hold, 15n);
    await makeDue(s.lotIds[0]);
    expect(await capture(s, hold, 12n)).toBe('12');
    expect(await lotState(s)).toEqual(['0/0', '8/0']);
    expect(await expiries(s)).toEqual([]);
    expect(await balance(s)).toBe(8n);
  });

  it('a partial capture releases the uncaptured rest, and a released part of an expired lot expires at the capture', async () => {
    const s = await setup('holds-capture-partial', [10n, 10n]);
    const hold = randomUUID();
    await reserve(s, hold, 15n);
    await makeDue(s.lotIds[0], 1);
    expect(await capture(s, hold, 4n)).toBe('4');
    const [expiry] = await expiries(s);
    expect(expiry).toMatchObject({ amount: '6', lot_id: s.lotIds[0], from_balance: '10' });
    expect(await lotState(s)).toEqual(['0/0', '10/0']);
    expect(await balance(s)).toBe(10n);
  });
});

describe('lots_release at a hold\'s own expiry, in the past', () => {
  it('expires what fell due before it, then the released part at the hold\'s expiry; what fell due since comes after, in date order', async () => {
    const s = await setup('holds-expiry', [10n, 10n, 10n]);
    const hold = randomUUID();
    await reserve(s, hold, 4n); // from the first lot
    await makeDue(s.lotIds[0], 10); // due 10 s ago: its free 6 expire then, its reserved 4 at the hold's expiry
    await makeDue(s.lotIds[1], 7);
    await makeDue(s.lotIds[2], 2); // due after the hold expired
    const [{ at }] = await t.db.query<{ at: Date }>(`SELECT clock_timestamp()::timestamptz(3) - interval '5 seconds' AS at`);
    const released = await t.db.transaction(async (client) => {
      await client.query(`SELECT 1 FROM wallets WHERE id = $1 FOR NO KEY UPDATE`, [s.wallet]);
      const n = (await client.query<{ n: number }>(`SELECT lots_release($1, $2, $3, $4) AS n`, [hold, s.wallet, s.f.assetId, at])).rows[0].n;
      await client.query(`SELECT lots_expire_due($1, $2, clock_timestamp())`, [s.wallet, s.f.assetId]);
      return n;
    });
    expect(released).toBe(3);
    const posted = await expiries(s);
    expect(posted.map((e) => [e.lot_id, e.amount, e.from_balance])).toEqual([
      [s.lotIds[0], '6', '24'],
      [s.lotIds[1], '10', '14'],
      [s.lotIds[0], '4', '10'],
      [s.lotIds[2], '10', '0'],
    ]);
    expect(posted[2].created_at.getTime()).toBe(at.getTime());
    const dates = posted.map((e) => e.created_at.getTime());
    expect([...dates].sort((a, b) => a - b)).toEqual(dates);
  });
});
