import { pick, prng, type Api } from './http.js';
import { minorOf } from './money.js';
import { majorText, type Bank, type Transfer } from './provision.js';

/**
 * The bank workload with every verb (CONTRACT §10–§12): writers mix transfers, holds (some
 * short-lived, 1–2 s), captures (some partial), voids, reversals (of transfers and, rarely, of
 * the seed, back to @mint) and batches; readers check that no balance, held or available is
 * ever read below zero (or inconsistent). Every outcome is classified, so the checks know
 * exactly which transactions and holds were acknowledged.
 */
export interface VerbsRunResult {
  /** Every acknowledged transaction: transfers, captures, reversals, batch legs (from/to: wallet ids, null = @mint). */
  transactions: (Omit<Transfer, 'to'> & { to: string | null; kind: string; reverses?: string; hold?: string })[];
  /** Acknowledged holds, with what the client was told last. */
  holds: Map<string, { from: string; to: string; amount: bigint; expiresIn: number | null; captured: bigint | null; voided: boolean }>;
  refused: Record<string, number>;
  unexpected: string[];
  badReads: string[];
  reads: number;
  operations: number;
}

const EXPECTED_REFUSALS = new Set(['insufficient_funds', 'hold_not_pending', 'hold_expired', 'conflict']);

export async function runVerbsBank(api: Api, bank: Bank, options: { writers: number; opsPerWriter: number; readers: number; seed: number; typicalMinor: bigint }): Promise<VerbsRunResult> {
  const wallets = [bank.system, ...bank.customers];
  const result: VerbsRunResult = { transactions: [], holds: new Map(), refused: {}, unexpected: [], badReads: [], reads: 0, operations: 0 };
  const pendingHolds: string[] = [];
  const reversible: { id: string; amount: bigint }[] = [];
  const money = (minor: bigint) => majorText(minor, bank.fractions);
  const body = (fields: Record<string, unknown>) => ({ projectId: bank.projectId, ...fields });
  let writing = true;

  const classify = (what: string, res: { status: number; body: any }): boolean => {
    result.operations += 1;
    if (res.status === 200 || res.status === 201) return true;
    const code = res.body?.code;
    if (res.status === 409 && EXPECTED_REFUSALS.has(code)) result.refused[code] = (result.refused[code] ?? 0) + 1;
    else result.unexpected.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return false;
  };
  const addressOf = (id: string | null) => (id === null ? '@mint' : wallets.find((w) => w.id === id)!.address);
  const record = (tx: any, from: string, to: string | null, amount: bigint, kind: string, extra: { reverses?: string; hold?: string } = {}) => {
    if (tx?.from !== addressOf(from) || tx?.to !== addressOf(to) || minorOf(tx.amount, bank.fractions) !== amount || !(tx.balance >= 0)) {
      result.unexpected.push(`${kind} acknowledged with a wrong body: ${JSON.stringify(tx)}`);
    }
    result.transactions.push({ id: tx.id, from, to, amount, kind, ...extra });
    if (kind !== 'reversal' && to !== null) reversible.push({ id: tx.id, amount });
  };

  const writer = async (w: number) => {
    const rand = prng(options.seed * 1000 + w);
    const amountOf = () => {
      const scale = rand() < 1 / 6 ? BigInt(3 + Math.floor(rand() * 7)) * options.typicalMinor : options.typicalMinor;
      return 1n + BigInt(Math.floor(rand() * Number(scale)));
    };
    const pair = () => {
      const from = pick(rand, wallets);
      let to = pick(rand, wallets);
      while (to.id === from.id) to = pick(rand, wallets);
      return [from, to];
    };
    for (let k = 0; k < options.opsPerWriter; k++) {
      const roll = rand();
      if (roll < 0.3) {
        const [from, to] = pair();
        const amount = amountOf();
        const res = await api.post('/transactions', body({ amount: money(amount), currency: bank.currency, from: from.id, to: to.id, reference: `t-${w}-${k}`, metadata: { w, k } }));
        if (classify('transfer', res)) record(res.body.transaction, from.id, to.id, amount, 'transfer');
      } else if (roll < 0.5) {
        const [from, to] = pair();
        const amount = amountOf();
        const expiresIn = rand() < 0.35 ? 1 + Math.floor(rand() * 2) : null;
        const res = await api.post('/holds', body({ amount: money(amount), currency: bank.currency, from: from.id, to: to.id, ...(expiresIn && { expiresIn }) }));
        if (classify('hold', res)) {
          result.holds.set(res.body.hold.id, { from: from.id, to: to.id, amount, expiresIn, captured: null, voided: false });
          pendingHolds.push(res.body.hold.id);
        }
      } else if (roll < 0.65 && pendingHolds.length) {
        // several writers may pick the same hold: at most one capture or void may win
        const id = pick(rand, pendingHolds);
        const hold = result.holds.get(id)!;
        const partial = rand() < 0.4 ? 1n + BigInt(Math.floor(rand() * Number(hold.amount))) : null;
        const amount = partial !== null && partial <= hold.amount ? partial : hold.amount;
        const res = await api.post(`/holds/${id}/capture`, body(partial === null ? {} : { amount: money(amount) }));
        if (classify('capture', res)) {
          if (hold.captured !== null || hold.voided) result.unexpected.push(`hold ${id} settled twice`);
          hold.captured = amount;
          record(res.body.transaction, hold.from, hold.to, amount, 'capture', { hold: id });
          if (res.body.hold.status !== 'captured' || minorOf(res.body.hold.capturedAmount, bank.fractions) !== amount) result.unexpected.push(`capture of ${id} answered ${JSON.stringify(res.body.hold)}`);
        }
      } else if (roll < 0.72 && pendingHolds.length) {
        const id = pick(rand, pendingHolds);
        const hold = result.holds.get(id)!;
        const res = await api.post(`/holds/${id}/void`, body({}));
        if (classify('void', res)) {
          if (hold.captured !== null || hold.voided) result.unexpected.push(`hold ${id} settled twice`);
          hold.voided = true;
        }
      } else if (roll < 0.85 && reversible.length) {
        const original = pick(rand, reversible);
        const amount = rand() < 0.5 ? 1n + BigInt(Math.floor(rand() * Number(original.amount))) : null;
        const res = await api.post(`/transactions/${original.id}/reverse`, body(amount === null ? {} : { amount: money(amount) }));
        if (classify('reversal', res)) {
          const tx = res.body.transaction;
          const posted = minorOf(tx.amount, bank.fractions);
          const from = result.transactions.find((t) => t.id === original.id)!;
          record(tx, from.to!, from.from, posted, 'reversal', { reverses: original.id });
        }
      } else if (roll < 0.87) {
        const res = await api.post(`/transactions/${bank.seeds[0].id}/reverse`, body({ amount: money(1n + BigInt(Math.floor(rand() * 100))) }));
        if (classify('seed reversal', res)) record(res.body.transaction, bank.system.id, null, minorOf(res.body.transaction.amount, bank.fractions), 'reversal', { reverses: bank.seeds[0].id });
      } else {
        const legs = Array.from({ length: 2 + Math.floor(rand() * 3) }, () => {
          const [from, to] = pair();
          return { from, to, amount: amountOf() };
        });
        const res = await api.post('/transactions/batch', body({ transfers: legs.map((l) => ({ amount: money(l.amount), currency: bank.currency, from: l.from.id, to: l.to.id })) }));
        if (classify('batch', res)) legs.forEach((l, i) => record(res.body.transactions[i], l.from.id, l.to.id, l.amount, 'transfer'));
        else if (res.body?.details?.index === undefined) result.unexpected.push(`batch refused without details.index: ${JSON.stringify(res.body)}`);
      }
    }
  };

  const reader = async (r: number) => {
    const rand = prng(options.seed * 1000 + 500 + r);
    while (writing) {
      const wallet = pick(rand, wallets);
      const res = await api.get(`/wallets/${wallet.id}`);
      result.reads += 1;
      if (res.status !== 200) {
        result.badReads.push(`read of ${wallet.id}: ${res.status}`);
        continue;
      }
      for (const b of res.body.balance) {
        const [balance, held, available] = [b.balance, b.held, b.available].map((v: number) => minorOf(v, bank.fractions));
        if (balance < 0n || held < 0n || available < 0n || available !== balance - held) result.badReads.push(`wallet ${wallet.address} read ${JSON.stringify(b)}`);
      }
      for (const tx of res.body.transactions) if (!(tx.balance >= 0)) result.badReads.push(`wallet ${wallet.address} history shows ${tx.balance}`);
    }
  };

  const readers = Array.from({ length: options.readers }, (_, r) => reader(r));
  await Promise.all(Array.from({ length: options.writers }, (_, w) => writer(w)));
  writing = false;
  await Promise.all(readers);
  return result;
}
