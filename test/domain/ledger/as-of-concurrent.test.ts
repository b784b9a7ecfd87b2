import { startTestApp, type TestApp } from '../../support/test-app.js';
import { runBank } from '../../system/support/bank.js';
import { Api, pool, prng } from '../../system/support/http.js';
import { minorOf } from '../../system/support/money.js';
import { provisionBank, type Bank } from '../../system/support/provision.js';

/**
 * Reads as of a time over a history written by concurrent writers (the bank workload), CONTRACT
 * §14: for instants taken from that history (each transaction's date, and the millisecond
 * before), every wallet's balance, total and history as of the instant equal what the table says
 * in SQL (every row dated at or before it), the running balance chain holds within the cut, and
 * an answer about the past stays the same while more writers post.
 */
describe('as of a time, under concurrent postings', () => {
  let t: TestApp;
  let api: Api;
  let bank: Bank;
  beforeAll(async () => {
    t = await startTestApp();
    api = new Api(t.baseUrl, await t.issueKey('as-of-bank', 'pro'));
    ({ bank } = await provisionBank(api, { customers: 8, seedMinor: 10_000_000n, fundMinor: 20_000n, name: 'as-of bank' }));
  });
  afterAll(() => t.close());

  const wallets = () => [bank.system, ...bank.customers];
  const write = (seed: number) => runBank({ targets: [api], bank, writers: 16, transfersPerWriter: 24, readers: 0, seed, typicalMinor: 5_000n });

  /** What the table says, independently of the as-of indexes and counts: every row of the wallet dated at or before `asOf`. */
  async function fromTable(walletId: string, asOf: string): Promise<{ balance: bigint; total: number; newest: string[] }> {
    const rows = await t.db.query<{ id: string; delta: string }>(
      `SELECT id, (CASE WHEN to_wallet_id = $1 THEN amount ELSE -amount END)::text AS delta FROM transactions
        WHERE project_id = $3 AND (from_wallet_id = $1 OR to_wallet_id = $1) AND created_at <= $2::timestamptz ORDER BY seq DESC`,
      [walletId, asOf, bank.projectId],
    );
    return { balance: rows.reduce((sum, row) => sum + BigInt(row.delta), 0n), total: rows.length, newest: rows.slice(0, 100).map((row) => row.id) };
  }

  /** One wallet as of `asOf` over REST: the wallet read and the first page of 100 of its history. */
  async function read(walletId: string, asOf: string) {
    const [wallet, history] = await Promise.all([api.get(`/wallets/${walletId}?asOf=${asOf}`), api.get(`/transactions?walletId=${walletId}&asOf=${asOf}&limit=100`)]);
    if (wallet.status !== 200 || history.status !== 200) throw new Error(`as-of read failed: ${wallet.status} ${history.status} ${JSON.stringify([wallet.body, history.body])}`);
    return { wallet: wallet.body, history: history.body };
  }

  it('answers, for instants within the history, exactly what the table says, and the same answer while more is posted', async () => {
    const first = await write(20261123);
    expect(first.unexpected).toEqual([]);
    expect(first.acknowledged.length).toBeGreaterThan(200);

    // the property the cut relies on: a wallet's rows are dated in the order they were posted
    const disorder = await t.db.query(
      `SELECT wallet_id, seq FROM (
         SELECT w AS wallet_id, seq, created_at, lag(created_at) OVER (PARTITION BY w, asset_id ORDER BY seq) AS previous
           FROM transactions, unnest(ARRAY[from_wallet_id, to_wallet_id]) AS w WHERE project_id = $1 AND w IS NOT NULL) x
        WHERE created_at < previous`,
      [bank.projectId],
    );
    expect(disorder).toEqual([]);

    const dates = (await t.db.query<{ date: Date }>(`SELECT DISTINCT created_at AS date FROM transactions WHERE project_id = $1`, [bank.projectId])).map((r) => r.date.getTime());
    const rand = prng(7);
    const instants = Array.from({ length: 8 }, () => dates[Math.floor(rand() * dates.length)]).flatMap((ms) => [ms, ms - 1]).map((ms) => new Date(ms).toISOString());
    const cases = instants.flatMap((asOf) => wallets().map((wallet) => ({ asOf, wallet })));
    const answers = await pool(cases.length, 8, (i) => read(cases[i].wallet.id, cases[i].asOf));

    // the same questions again, while 16 more writers post
    const [second, again] = await Promise.all([write(20261124), pool(cases.length, 8, (i) => read(cases[i].wallet.id, cases[i].asOf))]);
    expect(second.unexpected).toEqual([]);
    expect(again).toEqual(answers);

    const problems: string[] = [];
    for (const [i, { asOf, wallet }] of cases.entries()) {
      const { wallet: w, history: h } = answers[i];
      const table = await fromTable(wallet.id, asOf);
      const where = `${wallet.address} as of ${asOf}`;
      const balance = minorOf(w.balance[0].balance, bank.fractions);
      if (balance !== table.balance) problems.push(`${where}: balance ${balance}, table ${table.balance}`);
      if (minorOf(h.balance.balance, bank.fractions) !== table.balance) problems.push(`${where}: history balance ${h.balance.balance}, table ${table.balance}`);
      if (h.pagination.total !== table.total) problems.push(`${where}: total ${h.pagination.total}, table ${table.total}`);
      const ids = h.transactions.map((tx: { id: string }) => tx.id);
      if (JSON.stringify(ids) !== JSON.stringify(table.newest)) problems.push(`${where}: history ${ids.length} rows, not the table's newest ${table.newest.length}`);
      if (JSON.stringify(w.transactions.map((tx: { id: string }) => tx.id)) !== JSON.stringify(table.newest.slice(0, 20))) problems.push(`${where}: wallet's 20 newest differ`);
      // the running balance chain within the cut: the newest is the balance, each step is its amount
      h.transactions.forEach((tx: any, k: number) => {
        const after = minorOf(tx.balance, bank.fractions);
        const before = k + 1 < h.transactions.length ? minorOf(h.transactions[k + 1].balance, bank.fractions) : null;
        if (k === 0 && after !== table.balance) problems.push(`${where}: newest row's balance ${after}, table ${table.balance}`);
        const amount = minorOf(tx.amount, bank.fractions);
        if (before !== null && after - before !== (tx.to === wallet.address ? amount : -amount)) problems.push(`${where}: chain breaks at ${tx.id}`);
        if (tx.date > asOf) problems.push(`${where}: ${tx.id} is dated ${tx.date}`);
      });
    }
    expect(problems).toEqual([]);
    expect(cases.length).toBe(16 * wallets().length);
  });
});
