import type { Queryable } from './invariants.js';

/**
 * An independent model of CONTRACT §15, replayed over the transactions table in posting order
 * and compared with the lots table: every lot created by exactly its credit (customer wallets
 * only, `expires_at` = posting time + a permitted lifetime), every debit consuming unexpired lots
 * earliest expiry first and funds without a lot last, every expiry posting exactly the remainder
 * of a due lot (so a lot expired twice, or expired for the wrong amount, shows), dated its
 * `expires_at`, and always before any later posting touches the wallet. At the end each lot's
 * `remaining` must be the model's, and each customer's lots plus its funds without a lot must
 * make its balance.
 */
export interface LotOracleOptions {
  projectId: number;
  customers: readonly string[];
  /** Lifetimes the asset's expiresAfterSeconds took during the run; any when absent. */
  lifetimesSeconds?: readonly number[];
}

export interface LotOracleSummary {
  lots: number;
  expiries: number;
  expiredMinor: bigint;
  /** Lots whose expires_at has passed and whose expiry is not posted yet (the sweeper's backlog). */
  dueUnexpired: number;
  /** Customers' funds without a lot at the end, in total. */
  unlottedMinor: bigint;
}

interface TxRow {
  id: string;
  kind: string;
  from_wallet_id: string | null;
  to_wallet_id: string | null;
  amount: string;
  created_at: Date;
  lot_id: string | null;
}

interface DbLot {
  id: string;
  wallet_id: string;
  amount: string;
  remaining: string;
  held: string;
  expires_at: Date;
  created_at: Date;
  credit_tx_id: string;
}

interface ModelLot {
  id: string;
  expiresAt: number;
  remaining: bigint;
}

const earlier = (a: ModelLot, b: ModelLot) => a.expiresAt - b.expiresAt || Number(BigInt(a.id) - BigInt(b.id));

export async function lotViolations(db: Queryable, options: LotOracleOptions): Promise<{ problems: string[]; summary: LotOracleSummary }> {
  const problems: string[] = [];
  const rows = await db.query<TxRow>(
    `SELECT id, kind, from_wallet_id, to_wallet_id, amount::text, created_at, lot_id::text FROM transactions WHERE project_id = $1 ORDER BY seq`,
    [options.projectId],
  );
  const dbLots = await db.query<DbLot>(
    `SELECT id::text, wallet_id, amount::text, remaining::text, held::text, expires_at, created_at, credit_tx_id FROM lots l WHERE project_id = $1 ORDER BY l.id`,
    [options.projectId],
  );
  const balances = new Map(
    (await db.query<{ wallet_id: string; amount: string }>(`SELECT wallet_id, amount::text FROM balances WHERE project_id = $1`, [options.projectId])).map((b) => [b.wallet_id, BigInt(b.amount)]),
  );
  const [{ due }] = await db.query<{ due: string }>(`SELECT count(*)::text AS due FROM lots WHERE project_id = $1 AND remaining > held AND expires_at <= now()`, [options.projectId]);

  const customers = new Set(options.customers);
  const lotOfCredit = new Map(dbLots.map((l) => [l.credit_tx_id, l]));
  const lotById = new Map(dbLots.map((l) => [l.id, l]));
  const modelById = new Map<string, ModelLot>();
  const wallets = new Map<string, { lots: ModelLot[]; unlotted: bigint }>();
  const stateOf = (wallet: string) => {
    let state = wallets.get(wallet);
    if (!state) wallets.set(wallet, (state = { lots: [], unlotted: 0n }));
    return state;
  };
  let expiries = 0;
  let expiredMinor = 0n;

  for (const row of rows) {
    const date = row.created_at.getTime();
    const amount = BigInt(row.amount);
    if (row.kind === 'expiry') {
      expiries += 1;
      expiredMinor += amount;
      const lot = row.lot_id === null ? undefined : lotById.get(row.lot_id);
      const model = row.lot_id === null ? undefined : modelById.get(row.lot_id);
      if (!lot || !model || lot.wallet_id !== row.from_wallet_id) {
        problems.push(`expiry ${row.id} names lot ${row.lot_id}, not a lot of ${row.from_wallet_id}`);
        continue;
      }
      if (date !== lot.expires_at.getTime()) problems.push(`expiry ${row.id} dated ${row.created_at.toISOString()}, its lot expires at ${lot.expires_at.toISOString()}`);
      for (const other of stateOf(lot.wallet_id).lots) {
        if (other.remaining > 0n && earlier(other, model) < 0) problems.push(`lot ${other.id} (due ${new Date(other.expiresAt).toISOString()}) was still unexpired when lot ${lot.id} expired`);
      }
      if (model.remaining !== amount) problems.push(`expiry ${row.id} takes ${amount} from lot ${lot.id}, which had ${model.remaining} left${model.remaining === 0n ? ' (expired twice?)' : ''}`);
      model.remaining = model.remaining > amount ? model.remaining - amount : 0n;
      continue;
    }
    for (const wallet of [row.from_wallet_id, row.to_wallet_id]) {
      if (wallet === null || !customers.has(wallet)) continue;
      for (const lot of stateOf(wallet).lots) {
        if (lot.remaining > 0n && lot.expiresAt <= date) problems.push(`tx ${row.id} at ${row.created_at.toISOString()} touches ${wallet} while lot ${lot.id} (due ${new Date(lot.expiresAt).toISOString()}) is unexpired`);
      }
    }
    if (row.from_wallet_id !== null && customers.has(row.from_wallet_id)) {
      const state = stateOf(row.from_wallet_id);
      let left = amount;
      for (const lot of state.lots.filter((l) => l.remaining > 0n && l.expiresAt > date).sort(earlier)) {
        const take = lot.remaining < left ? lot.remaining : left;
        lot.remaining -= take;
        left -= take;
        if (left === 0n) break;
      }
      if (left > state.unlotted) problems.push(`tx ${row.id}: ${row.from_wallet_id} spends ${left} outside its lots, but has only ${state.unlotted} without a lot`);
      state.unlotted -= left;
    }
    const lot = lotOfCredit.get(row.id);
    if (row.to_wallet_id !== null && customers.has(row.to_wallet_id)) {
      if (lot) {
        const lifetime = (lot.expires_at.getTime() - lot.created_at.getTime()) / 1000;
        if (lot.wallet_id !== row.to_wallet_id || BigInt(lot.amount) !== amount || lot.created_at.getTime() !== date) problems.push(`lot ${lot.id} does not match its credit ${row.id}`);
        if (options.lifetimesSeconds && !options.lifetimesSeconds.includes(lifetime)) problems.push(`lot ${lot.id} lives ${lifetime} s`);
        const model = { id: lot.id, expiresAt: lot.expires_at.getTime(), remaining: amount };
        modelById.set(lot.id, model);
        stateOf(row.to_wallet_id).lots.push(model);
      } else {
        stateOf(row.to_wallet_id).unlotted += amount;
      }
    } else if (lot) {
      problems.push(`lot ${lot.id} was created by a credit to a wallet that is not a customer (${row.to_wallet_id})`);
    }
  }

  for (const lot of dbLots) {
    const model = modelById.get(lot.id);
    if (!model) problems.push(`lot ${lot.id} has no credit among the project's transactions`);
    else if (model.remaining !== BigInt(lot.remaining)) problems.push(`lot ${lot.id} has ${lot.remaining} left; the model says ${model.remaining}`);
    if (lot.held !== '0') problems.push(`lot ${lot.id} holds ${lot.held} with no hold in the run`);
  }
  let unlottedMinor = 0n;
  for (const wallet of customers) {
    const state = stateOf(wallet);
    const inLots = dbLots.filter((l) => l.wallet_id === wallet).reduce((total, l) => total + BigInt(l.remaining), 0n);
    const balance = balances.get(wallet) ?? 0n;
    if (inLots + state.unlotted !== balance) problems.push(`${wallet}: lots hold ${inLots}, funds without a lot ${state.unlotted}, balance ${balance}`);
    unlottedMinor += state.unlotted;
  }
  return { problems, summary: { lots: dbLots.length, expiries, expiredMinor, dueUnexpired: Number(due), unlottedMinor } };
}
