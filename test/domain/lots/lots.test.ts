import { PostingRepository } from '../../../src/domain/ledger/posting.repository.js';
import type { PostingRequest } from '../../../src/domain/ledger/ledger.types.js';
import { LotRepository } from '../../../src/domain/lots/lot.repository.js';
import { expectStatus, fundedProject, type FundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * The lot rules of CONTRACT §15 in the database (src/domain/lots/*.sql via ledger_post and
 * lots_sweep). Time is not waited for: a lot is made due by moving its `expires_at` to the
 * present, which is what the passing of time would do.
 */
let t: TestApp;
let ledger: PostingRepository;
let lots: LotRepository;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  ledger = new PostingRepository(t.db);
  lots = new LotRepository(t.db);
});
afterAll(() => t.close());

interface LotRow {
  id: string;
  amount: string;
  remaining: string;
  expires_at: Date;
  created_at: Date;
  credit_tx_id: string;
}

const lotsOf = (walletId: string) =>
  t.db.query<LotRow>(`SELECT id::text, amount::text, remaining::text, expires_at, created_at, credit_tx_id FROM lots l WHERE wallet_id = $1 ORDER BY l.id`, [walletId]);
const balanceOf = async (walletId: string) => {
  const [row] = await t.db.query<{ amount: string }>(`SELECT amount::text FROM balances WHERE wallet_id = $1`, [walletId]);
  return row ? BigInt(row.amount) : 0n;
};
const setExpiry = (f: FundedProject, seconds: number | null) =>
  expectStatus(t.request('PUT', `/assets/${f.assetId}`, { key: f.key, body: { expiresAfterSeconds: seconds } }), 200);
/** What the passing of time does: the lot's expiry instant is now. */
// secondsAgo keeps two lots made due one after the other apart: two calls can fall in the same millisecond
const makeDue = (lotId: string, secondsAgo = 0) =>
  t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) - make_interval(secs => $2) WHERE id = $1`, [lotId, secondsAgo]);

async function post(f: FundedProject, from: string | null, to: string, amount: bigint) {
  const request: PostingRequest = { kind: from === null ? 'seed' : 'transfer', projectId: f.projectId, assetId: f.assetId, fromWalletId: from, toWalletId: to, amount, requestKey: null };
  const [result] = await ledger.post([request]);
  return result;
}

async function project(owner: string, customers = 2): Promise<FundedProject> {
  const key = await t.issueKey(owner, 'enterprise');
  return fundedProject(t, key, { customers, systemBalance: '100000' });
}

describe('a credit of an expiring asset to a customer wallet creates a lot', () => {
  it('records amount, remaining, created_at = the posting time and expires_at = posting time + expiresAfterSeconds', async () => {
    const f = await project('lots-credit');
    await setExpiry(f, 3600);
    const [customer] = f.customers;
    const result = await post(f, f.system.id, customer.id, 1234n);
    expect(result.code).toBe('ok');
    const [lot] = await lotsOf(customer.id);
    expect(lot).toMatchObject({ amount: '1234', remaining: '1234', credit_tx_id: result.id });
    expect(lot.created_at.getTime()).toBe(result.postedAt!.getTime());
    expect(lot.expires_at.getTime() - lot.created_at.getTime()).toBe(3600_000);
  });

  it('creates none for a system wallet, a seed, or an asset without expiry', async () => {
    const f = await project('lots-none');
    const [customer] = f.customers;
    expect((await post(f, f.system.id, customer.id, 10n)).code).toBe('ok'); // no expiry yet
    await setExpiry(f, 60);
    expect((await post(f, null, f.system.id, 10n)).code).toBe('ok'); // a seed, to a system wallet
    expect((await post(f, customer.id, f.system.id, 5n)).code).toBe('ok'); // a credit to a system wallet
    expect(await lotsOf(customer.id)).toEqual([]);
    expect(await lotsOf(f.system.id)).toEqual([]);
  });

  it('a change of expiresAfterSeconds applies to credits posted after it; existing lots keep theirs', async () => {
    const f = await project('lots-change');
    const [customer] = f.customers;
    await setExpiry(f, 100);
    await post(f, f.system.id, customer.id, 1n);
    await setExpiry(f, 200);
    await post(f, f.system.id, customer.id, 2n);
    await setExpiry(f, null);
    await post(f, f.system.id, customer.id, 3n);
    const rows = await lotsOf(customer.id);
    expect(rows.map((l) => [l.amount, (l.expires_at.getTime() - l.created_at.getTime()) / 1000])).toEqual([
      ['1', 100],
      ['2', 200],
    ]);
  });
});

describe('a debit consumes lots, the one expiring first first, and funds without a lot last', () => {
  it('takes from the earliest expiry across lots, then from the funds without a lot', async () => {
    const f = await project('lots-consume');
    const [customer, other] = f.customers;
    await post(f, f.system.id, customer.id, 100n); // no expiry: funds without a lot
    await setExpiry(f, 1000);
    await post(f, f.system.id, customer.id, 50n); // lot A, expires in 1000 s
    await setExpiry(f, 500);
    await post(f, f.system.id, customer.id, 30n); // lot B, expires in 500 s: first
    expect((await post(f, customer.id, other.id, 40n)).code).toBe('ok');
    expect((await lotsOf(customer.id)).map((l) => l.remaining)).toEqual(['40', '0']);
    expect((await post(f, customer.id, other.id, 60n)).code).toBe('ok');
    expect((await lotsOf(customer.id)).map((l) => l.remaining)).toEqual(['0', '0']);
    expect(await balanceOf(customer.id)).toBe(80n); // 100 without a lot, 20 of them spent
    // the receiver got lots of the asset's current expiry for what it received
    expect((await lotsOf(other.id)).map((l) => [l.amount, l.remaining])).toEqual([
      ['40', '40'],
      ['60', '60'],
    ]);
  });

  it('a refused debit consumes nothing', async () => {
    const f = await project('lots-refused');
    const [customer, other] = f.customers;
    await setExpiry(f, 1000);
    await post(f, f.system.id, customer.id, 10n);
    expect((await post(f, customer.id, other.id, 11n)).code).toBe('insufficient_funds');
    expect((await lotsOf(customer.id)).map((l) => l.remaining)).toEqual(['10']);
  });
});

describe('expiry', () => {
  it('a posting that touches the wallet expires its due lots first, in the same transaction: expired points fund nothing', async () => {
    const f = await project('lots-expire-first');
    const [customer, other] = f.customers;
    await post(f, f.system.id, customer.id, 5n); // without a lot
    await setExpiry(f, 1000);
    await post(f, f.system.id, customer.id, 25n);
    const [lot] = await lotsOf(customer.id);
    await makeDue(lot.id);
    const [due] = await lotsOf(customer.id);
    expect((await post(f, customer.id, other.id, 30n)).code).toBe('insufficient_funds');
    expect(await balanceOf(customer.id)).toBe(5n);
    const expiries = await t.db.query<{ kind: string; to_wallet_id: string | null; amount: string; from_balance: string; to_balance: string | null; created_at: Date; lot_id: string }>(
      `SELECT kind, to_wallet_id, amount::text, from_balance::text, to_balance, created_at, lot_id::text FROM transactions WHERE from_wallet_id = $1 AND kind = 'expiry'`,
      [customer.id],
    );
    expect(expiries).toEqual([{ kind: 'expiry', to_wallet_id: null, amount: '25', from_balance: '5', to_balance: null, created_at: due.expires_at, lot_id: lot.id }]);
    expect((await lotsOf(customer.id))[0].remaining).toBe('0');
    const [{ tx_count }] = await t.db.query<{ tx_count: string }>(`SELECT tx_count::text FROM balances WHERE wallet_id = $1`, [customer.id]);
    expect(tx_count).toBe('3'); // two credits and the expiry
    expect((await post(f, customer.id, other.id, 5n)).code).toBe('ok');
  });

  it('a credit to the wallet expires its due lots first too, and the running balances chain through', async () => {
    const f = await project('lots-expire-credit');
    const [customer] = f.customers;
    await setExpiry(f, 1000);
    await post(f, f.system.id, customer.id, 7n);
    await makeDue((await lotsOf(customer.id))[0].id);
    const credit = await post(f, f.system.id, customer.id, 3n);
    expect(credit.toBalance).toBe(3n);
    const chain = await t.db.query<{ kind: string; amount: string; balance: string }>(
      `SELECT kind, amount::text, (CASE WHEN from_wallet_id = $1 THEN from_balance ELSE to_balance END)::text AS balance
         FROM transactions WHERE from_wallet_id = $1 OR to_wallet_id = $1 ORDER BY seq`,
      [customer.id],
    );
    expect(chain).toEqual([
      { kind: 'transfer', amount: '7', balance: '7' },
      { kind: 'expiry', amount: '7', balance: '0' },
      { kind: 'transfer', amount: '3', balance: '3' },
    ]);
  });

  it('expires only the lots that are due, earliest first, one transaction each', async () => {
    const f = await project('lots-expire-some');
    const [customer] = f.customers;
    await setExpiry(f, 1000);
    for (const amount of [1n, 2n, 3n]) await post(f, f.system.id, customer.id, amount);
    const [first, second] = await lotsOf(customer.id);
    await makeDue(second.id, 2);
    await makeDue(first.id, 1);
    await post(f, f.system.id, customer.id, 10n);
    const expiries = await t.db.query<{ amount: string; lot_id: string; from_balance: string }>(
      `SELECT amount::text, lot_id::text, from_balance::text FROM transactions WHERE from_wallet_id = $1 AND kind = 'expiry' ORDER BY seq`,
      [customer.id],
    );
    expect(expiries).toEqual([
      { amount: '2', lot_id: second.id, from_balance: '4' }, // the earlier expires_at
      { amount: '1', lot_id: first.id, from_balance: '3' },
    ]);
    expect((await lotsOf(customer.id)).map((l) => l.remaining)).toEqual(['0', '0', '3', '10']);
    expect(await balanceOf(customer.id)).toBe(13n);
  });
});

describe('lots_sweep (the background sweeper)', () => {
  it('takes at most its batch of lots per round, earliest first, and says when the round was full', async () => {
    const f = await project('lots-sweep-batch', 2);
    await setExpiry(f, 1000);
    for (const customer of f.customers) for (let i = 0; i < 3; i++) await post(f, f.system.id, customer.id, 10n);
    // earlier lots fall due earlier: one a second, the last one now
    await t.db.query(
      `UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) - make_interval(secs => (SELECT max(id) FROM lots WHERE project_id = $1) - id) WHERE project_id = $1`,
      [f.projectId],
    );
    const first = await lots.sweep(4);
    expect(first).toMatchObject({ expired: 4, fullRound: true });
    expect(await lots.sweep(4)).toMatchObject({ expired: 2, fullRound: false });
    const order = await t.db.query<{ ordered: boolean }>(
      `SELECT bool_and(x.created_at >= x.previous) AS ordered
         FROM (SELECT created_at, lag(created_at, 1, '-infinity') OVER (ORDER BY seq) AS previous FROM transactions WHERE project_id = $1 AND kind = 'expiry') x`,
      [f.projectId],
    );
    expect(order[0].ordered).toBe(true);
  });

  it('posts every due expiry exactly once, with two sweepers and postings running at the same time', async () => {
    const f = await project('lots-sweep', 20);
    await setExpiry(f, 1000);
    for (const customer of f.customers) for (let i = 0; i < 10; i++) await post(f, f.system.id, customer.id, 10n);
    await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) WHERE project_id = $1`, [f.projectId]);
    // Postings touch only the first half of the wallets: the other half's lots can be expired by
    // nobody but the sweepers, so their rounds must report some (sweepers skip the wallets a
    // posting has locked, and a posting settles its sender's due lots itself).
    const senders = f.customers.slice(0, 10);
    const postings = senders.map((c, i) => post(f, c.id, senders[(i + 1) % senders.length].id, 1n));
    const sweeps = [lots.sweep(50), lots.sweep(50), lots.sweep(7), lots.sweep(1000)];
    const [results, rounds] = await Promise.all([Promise.all(postings), Promise.all(sweeps)]);
    // the senders' own lots expired before their debit: they had nothing left to send
    expect(results.every((r) => r.code === 'insufficient_funds')).toBe(true);
    while ((await lots.sweep(1000)).expired > 0);
    const counts = await t.db.query<{ lot_id: string; n: string }>(
      `SELECT l.id::text AS lot_id, count(x.id)::text AS n FROM lots l LEFT JOIN transactions x ON x.lot_id = l.id WHERE l.project_id = $1 GROUP BY l.id`,
      [f.projectId],
    );
    expect(counts).toHaveLength(200);
    expect(counts.filter((c) => c.n !== '1')).toEqual([]);
    const [left] = await t.db.query<{ total: string }>(`SELECT coalesce(sum(amount), 0)::text AS total FROM balances WHERE project_id = $1 AND wallet_id <> $2`, [f.projectId, f.system.id]);
    expect(left.total).toBe('0');
    expect(rounds.reduce((sum, r) => sum + r.expired, 0)).toBeGreaterThan(0);
  });

  it('reports how late the expiries it posted were', async () => {
    const f = await project('lots-sweep-lag', 1);
    await setExpiry(f, 1000);
    await post(f, f.system.id, f.customers[0].id, 10n);
    await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) - interval '2 seconds' WHERE project_id = $1`, [f.projectId]);
    const round = await lots.sweep(100);
    expect(round.expired).toBe(1);
    expect(round.fullRound).toBe(false);
    expect(round.maxLagMs).toBeGreaterThanOrEqual(2000);
    expect(round.maxLagMs).toBeLessThan(60_000);
  });

  it('skips a wallet whose lock another transaction holds, and expires it on a later round', async () => {
    const f = await project('lots-sweep-skip', 1);
    const [customer] = f.customers;
    await setExpiry(f, 1000);
    await post(f, f.system.id, customer.id, 10n);
    await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) WHERE project_id = $1`, [f.projectId]);
    const round = await t.db.transaction(async (client) => {
      await client.query(`SELECT 1 FROM wallets WHERE id = $1 FOR NO KEY UPDATE`, [customer.id]);
      return lots.sweep(100); // another connection: it must not wait for this lock
    });
    expect(round).toMatchObject({ expired: 0, skipped: 1 });
    expect((await lots.sweep(100)).expired).toBe(1);
  });
});
