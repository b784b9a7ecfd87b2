import type { Api } from './http.js';
import { minorOf, sum } from './money.js';
import type { Attempt } from './bank.js';
import type { Bank, Transfer, WalletInfo } from './provision.js';

export interface Queryable {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface Expectations {
  bank: Bank;
  /** Every transfer answered 201, the fan-out included. */
  acknowledged: Transfer[];
  /** Transfers whose outcome the client never learnt (crash): each may or may not be posted. */
  indeterminate?: Attempt[];
  /**
   * On an expiring asset (CONTRACT §15): the expiry transactions the ledger posted (expiredOf),
   * which leave wallets to @expired; their validity, lot by lot, is lotViolations' job
   * (support/lots-oracle.ts). Absent: no expiry may exist.
   */
  expired?: Expiry[];
  /** Wallets with a credit line (CONTRACT §28), minor units: no posting takes one below −limit (the others: below zero). */
  creditLimits?: ReadonlyMap<string, bigint>;
}

/** An expiry transaction: points of one lot leaving `from` to @expired. */
export interface Expiry {
  id: string;
  from: string;
  amount: bigint;
}

/** The expiry transactions of a project, in posting order. */
export async function expiredOf(db: Queryable, projectId: number): Promise<Expiry[]> {
  const rows = await db.query<{ id: string; from_wallet_id: string; amount: string }>(
    `SELECT id, from_wallet_id, amount::text FROM transactions WHERE project_id = $1 AND kind = 'expiry' ORDER BY seq`,
    [projectId],
  );
  return rows.map((r) => ({ id: r.id, from: r.from_wallet_id, amount: BigInt(r.amount) }));
}

interface Row {
  id: string;
  seq: string;
  kind: 'seed' | 'transfer' | 'expiry';
  from_wallet_id: string | null;
  /** null: the points left the ledger (an expiry, to @expired). */
  to_wallet_id: string | null;
  amount: string;
  from_balance: string | null;
  to_balance: string | null;
}

/**
 * The ledger invariants of CONTRACT §4 (conservation as §11 and §15 generalise it), checked in
 * SQL on the database itself. Returns every violation found (empty: all hold), so a failure shows
 * the whole picture at once.
 */
export async function ledgerViolations(db: Queryable, expected: Expectations): Promise<string[]> {
  const { bank } = expected;
  const problems: string[] = [];
  const rows = await db.query<Row>(
    `SELECT id, seq::text, kind, from_wallet_id, to_wallet_id, amount::text, from_balance::text, to_balance::text
       FROM transactions t WHERE project_id = $1 ORDER BY t.seq`,
    [bank.projectId],
  );
  const stored = await db.query<{ wallet_id: string; amount: string; tx_count: string }>(
    `SELECT wallet_id, amount::text, tx_count::text FROM balances WHERE project_id = $1`,
    [bank.projectId],
  );

  // Replay the table in posting order: every stored running balance must be the replayed one, never below zero (−limit with a credit line).
  const replayed = new Map<string, bigint>();
  for (const row of rows) {
    const amount = BigInt(row.amount);
    if (row.from_wallet_id) {
      const after = (replayed.get(row.from_wallet_id) ?? 0n) - amount;
      const floor = -(expected.creditLimits?.get(row.from_wallet_id) ?? 0n);
      if (after < floor) problems.push(`tx ${row.id} takes ${row.from_wallet_id} below ${floor} (${after})`);
      if (String(after) !== row.from_balance) problems.push(`tx ${row.id} records from_balance ${row.from_balance}, replay says ${after}`);
      replayed.set(row.from_wallet_id, after);
    }
    if (row.to_wallet_id === null) {
      if (row.to_balance !== null) problems.push(`tx ${row.id} to no wallet records a to_balance ${row.to_balance}`);
      continue;
    }
    const after = (replayed.get(row.to_wallet_id) ?? 0n) + amount;
    if (String(after) !== row.to_balance) problems.push(`tx ${row.id} records to_balance ${row.to_balance}, replay says ${after}`);
    replayed.set(row.to_wallet_id, after);
  }
  // Each wallet's balance equals its credits minus its debits.
  const balances = new Map(stored.map((b) => [b.wallet_id, BigInt(b.amount)]));
  for (const wallet of new Set([...balances.keys(), ...replayed.keys()])) {
    if ((balances.get(wallet) ?? 0n) !== (replayed.get(wallet) ?? 0n)) {
      problems.push(`wallet ${wallet}: balance ${balances.get(wallet)} but credits - debits = ${replayed.get(wallet)}`);
    }
  }
  // Each balance row counts the transactions that moved it (the histories' totals read it).
  const moved = new Map<string, number>();
  for (const row of rows) for (const wallet of [row.from_wallet_id, row.to_wallet_id]) if (wallet) moved.set(wallet, (moved.get(wallet) ?? 0) + 1);
  for (const b of stored) {
    if (Number(b.tx_count) !== (moved.get(b.wallet_id) ?? 0)) problems.push(`wallet ${b.wallet_id}: tx_count ${b.tx_count}, ${moved.get(b.wallet_id) ?? 0} transactions`);
  }
  // Conservation (§4, §11, §15): seeded − returned to @mint − expired = the sum of all balances.
  const seeded = sum(bank.seeds.map((s) => s.amount));
  const seedRows = rows.filter((r) => r.kind === 'seed');
  if (sum(seedRows.map((r) => BigInt(r.amount))) !== seeded) problems.push(`seed rows total ${sum(seedRows.map((r) => BigInt(r.amount)))}, seeded ${seeded}`);
  const expiryRows = rows.filter((r) => r.kind === 'expiry');
  const expired = sum(expiryRows.map((r) => BigInt(r.amount)));
  const returned = sum(rows.filter((r) => r.to_wallet_id === null && r.kind !== 'expiry').map((r) => BigInt(r.amount)));
  if (sum(balances.values()) !== seeded - returned - expired) {
    problems.push(`balances total ${sum(balances.values())}, but seeded ${seeded} − returned to @mint ${returned} − expired ${expired} = ${seeded - returned - expired}`);
  }
  for (const row of expiryRows) if (row.to_wallet_id !== null || row.from_wallet_id === null) problems.push(`expiry ${row.id} is not from a wallet to @expired`);
  // Expiries: exactly those the caller read (none unless the asset expires).
  const expectedExpiries = new Map((expected.expired ?? []).map((e) => [e.id, e]));
  for (const row of expiryRows) {
    const e = expectedExpiries.get(row.id);
    if (!e) problems.push(`unexpected expiry ${row.id} of ${row.amount} from ${row.from_wallet_id}`);
    else if (e.from !== row.from_wallet_id || e.amount !== BigInt(row.amount)) problems.push(`expiry ${row.id} stored as ${JSON.stringify(row)}`);
  }
  if (expectedExpiries.size !== expiryRows.length) problems.push(`${expectedExpiries.size} expiries expected, ${expiryRows.length} posted`);

  // Every acknowledged transfer exactly as acknowledged; nothing unacknowledged unless indeterminate.
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const ack of expected.acknowledged) {
    const row = byId.get(ack.id);
    if (!row) problems.push(`acknowledged transfer ${ack.id} is missing`);
    else if (row.from_wallet_id !== ack.from || row.to_wallet_id !== ack.to || BigInt(row.amount) !== ack.amount) {
      problems.push(`acknowledged transfer ${ack.id} stored as ${JSON.stringify(row)}`);
    }
  }
  const acknowledgedIds = new Set(expected.acknowledged.map((a) => a.id));
  const seedIds = new Set(bank.seeds.map((s) => s.id));
  const unexplained = new Map<string, number>();
  for (const attempt of expected.indeterminate ?? []) {
    const k = `${attempt.from}>${attempt.to}:${attempt.amount}`;
    unexplained.set(k, (unexplained.get(k) ?? 0) + 1);
  }
  for (const row of rows) {
    if (acknowledgedIds.has(row.id) || seedIds.has(row.id) || row.kind === 'expiry') continue;
    const k = `${row.from_wallet_id}>${row.to_wallet_id}:${row.amount}`;
    const left = unexplained.get(k) ?? 0;
    if (left > 0) unexplained.set(k, left - 1);
    else problems.push(`unacknowledged ${row.kind} ${row.id} (${k}) was posted`);
  }
  if (acknowledgedIds.size !== expected.acknowledged.length) problems.push('one transaction id was acknowledged twice');

  // With every outcome known, each balance is exactly its acknowledged credits minus debits.
  if ((expected.indeterminate ?? []).length === 0) {
    const client = new Map<string, bigint>();
    for (const s of bank.seeds) client.set(bank.system.id, (client.get(bank.system.id) ?? 0n) + s.amount);
    for (const t of expected.acknowledged) {
      client.set(t.from, (client.get(t.from) ?? 0n) - t.amount);
      client.set(t.to, (client.get(t.to) ?? 0n) + t.amount);
    }
    for (const e of expected.expired ?? []) client.set(e.from, (client.get(e.from) ?? 0n) - e.amount);
    for (const wallet of [bank.system, ...bank.customers]) {
      if ((client.get(wallet.id) ?? 0n) !== (balances.get(wallet.id) ?? 0n)) {
        problems.push(`wallet ${wallet.address}: balance ${balances.get(wallet.id) ?? 0n}, acknowledged credits - debits - expiries ${client.get(wallet.id) ?? 0n}`);
      }
    }
  }
  return problems;
}

interface HistoryTx {
  id: string;
  amount: number;
  currency: string;
  balance: number;
  from: string;
  to: string;
  date: string;
}

/** Every page of a wallet's history over GET /transactions (limit 100), newest first. */
export async function fullHistory(api: Api, bank: Bank, wallet: WalletInfo): Promise<{ balance: number; total: number; transactions: HistoryTx[] }> {
  const transactions: HistoryTx[] = [];
  let total = 0;
  let balance = 0;
  for (let page = 1; ; page++) {
    const res = await api.get(`/transactions?walletId=${wallet.id}&currency=${bank.currency}&limit=100&page=${page}`);
    if (res.status !== 200) throw new Error(`history of ${wallet.address} page ${page}: ${res.status} ${JSON.stringify(res.body)}`);
    transactions.push(...res.body.transactions);
    total = res.body.pagination.total;
    balance = res.body.balance.balance;
    if (page >= res.body.pagination.totalPages) break;
  }
  return { balance, total, transactions };
}

/**
 * The histories as a client reads them: every acknowledged transfer once in the sender's and
 * once in the receiver's history, nothing else (seeds in the system wallet's, expiries in the
 * expired wallet's, to @expired), the running
 * balance chain consistent from zero, and the head of the chain equal to the current balance.
 */
export async function historyViolations(api: Api, expected: Expectations): Promise<string[]> {
  const { bank } = expected;
  const problems: string[] = [];
  const wallets = [bank.system, ...bank.customers];
  const byAddress = new Map(wallets.map((w) => [w.address, w]));
  const expectedIds = new Map<string, Set<string>>(wallets.map((w) => [w.id, new Set<string>()]));
  for (const t of expected.acknowledged) {
    expectedIds.get(t.from)?.add(t.id);
    expectedIds.get(t.to)?.add(t.id);
  }
  for (const s of bank.seeds) expectedIds.get(bank.system.id)!.add(s.id);
  for (const e of expected.expired ?? []) expectedIds.get(e.from)?.add(e.id);
  const exact = (expected.indeterminate ?? []).length === 0;

  for (const wallet of wallets) {
    const history = await fullHistory(api, bank, wallet);
    const ids = history.transactions.map((t) => t.id);
    if (new Set(ids).size !== ids.length) problems.push(`${wallet.address}: a transaction appears twice in its history`);
    if (history.total !== ids.length) problems.push(`${wallet.address}: pagination.total ${history.total} but ${ids.length} rows`);
    const want = expectedIds.get(wallet.id)!;
    for (const id of want) if (!ids.includes(id)) problems.push(`${wallet.address}: acknowledged ${id} missing from its history`);
    if (exact) for (const id of ids) if (!want.has(id)) problems.push(`${wallet.address}: unacknowledged ${id} in its history`);
    // Oldest first: each balance is the previous one plus (credit) or minus (debit) its amount.
    let running = 0n;
    for (const tx of [...history.transactions].reverse()) {
      const amount = minorOf(tx.amount, bank.fractions);
      const credit = tx.to === wallet.address;
      const debit = tx.from === wallet.address;
      if (credit === debit) problems.push(`${wallet.address}: tx ${tx.id} is neither a credit nor a debit of it (${tx.from} → ${tx.to})`);
      if (tx.from !== '@mint' && !byAddress.has(tx.from)) problems.push(`${wallet.address}: tx ${tx.id} from unknown ${tx.from}`);
      if (tx.to !== '@expired' && tx.to !== '@mint' && !byAddress.has(tx.to)) problems.push(`${wallet.address}: tx ${tx.id} to unknown ${tx.to}`);
      running += credit ? amount : -amount;
      if (minorOf(tx.balance, bank.fractions) !== running) {
        problems.push(`${wallet.address}: tx ${tx.id} shows balance ${tx.balance}, the chain gives ${running}`);
        running = minorOf(tx.balance, bank.fractions);
      }
    }
    if (minorOf(history.balance, bank.fractions) !== running) problems.push(`${wallet.address}: balance ${history.balance}, its history ends at ${running}`);
  }
  return problems;
}
