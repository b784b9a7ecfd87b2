import { pick, prng, type Api } from './http.js';
import { minorOf } from './money.js';
import { majorText, type Bank, type Transfer } from './provision.js';

export interface BankRunOptions {
  /** Writers and readers are spread over these (one per service instance). */
  targets: Api[];
  bank: Bank;
  writers: number;
  transfersPerWriter: number;
  readers: number;
  seed: number;
  /** Largest "ordinary" amount in minor units; about 1 in 6 transfers asks for 3-9× that (some overdraw). */
  typicalMinor: bigint;
  /** Polled before every transfer: once true, writers stop (crash test). */
  stop?: () => boolean;
  /** Called after every acknowledged transfer. */
  onAcknowledged?: (count: number) => void;
  /** Wallets with a credit line (CONTRACT §28), minor units: they may read down to −limit, not below. */
  creditLimits?: ReadonlyMap<string, bigint>;
}

export interface Attempt {
  from: string;
  to: string;
  amount: bigint;
}

export interface BankRunResult {
  acknowledged: Transfer[];
  refused: number;
  /** Requests whose outcome the client never learnt (connection lost): posted or not. */
  indeterminate: Attempt[];
  /** Any other answer: each one is a failure of the run. */
  unexpected: string[];
  reads: number;
  /** Balances read below zero, or reads that failed: each one is a failure. */
  badReads: string[];
  elapsedMs: number;
  /** Acknowledged + refused transfers per second of the writing phase. */
  transfersPerSecond: number;
}

/**
 * The Jepsen bank workload over real HTTP: `writers` concurrent clients each post
 * `transfersPerWriter` random transfers between the bank's wallets (the system wallet
 * included), while `readers` clients read wallets and histories and record any balance
 * below zero. Every outcome is classified, so the checks know exactly what was acknowledged.
 */
export async function runBank(options: BankRunOptions): Promise<BankRunResult> {
  const { bank } = options;
  const wallets = [bank.system, ...bank.customers];
  // the lowest balance a wallet may read, in major units: 0, or −limit with a credit line
  const floorOf = (walletId: string): number => -majorText(options.creditLimits?.get(walletId) ?? 0n, options.bank.fractions);
  const result: BankRunResult = { acknowledged: [], refused: 0, indeterminate: [], unexpected: [], reads: 0, badReads: [], elapsedMs: 0, transfersPerSecond: 0 };
  let writing = true;
  const started = performance.now();

  const writer = async (w: number) => {
    const rand = prng(options.seed * 1000 + w);
    const api = options.targets[w % options.targets.length];
    for (let k = 0; k < options.transfersPerWriter; k++) {
      if (options.stop?.()) return;
      const from = pick(rand, wallets);
      let to = pick(rand, wallets);
      while (to.id === from.id) to = pick(rand, wallets);
      const big = rand() < 1 / 6;
      const scale = big ? BigInt(3 + Math.floor(rand() * 7)) * options.typicalMinor : options.typicalMinor;
      const amount = 1n + BigInt(Math.floor(rand() * Number(scale)));
      const attempt: Attempt = { from: from.id, to: to.id, amount };
      let res;
      try {
        res = await api.post('/transactions', { amount: majorText(amount, bank.fractions), currency: bank.currency, projectId: bank.projectId, from: from.id, to: to.id });
      } catch {
        result.indeterminate.push(attempt);
        return; // the instance is gone (crash test): this writer stops
      }
      if (res.status === 201) {
        const tx = res.body.transaction;
        const shapeOk =
          typeof tx?.id === 'string' && tx.from === from.address && tx.to === to.address && minorOf(tx.amount, bank.fractions) === amount && tx.balance >= floorOf(from.id);
        if (!shapeOk) result.unexpected.push(`201 with a wrong body for ${JSON.stringify({ ...attempt, amount: String(amount) })}: ${JSON.stringify(res.body)}`);
        result.acknowledged.push({ id: tx.id, from: from.id, to: to.id, amount });
        options.onAcknowledged?.(result.acknowledged.length);
      } else if (res.status === 409 && res.body?.code === 'insufficient_funds') {
        result.refused += 1;
      } else if (res.status >= 500 && options.stop?.()) {
        // An instance losing its database at the kill may answer before it dies: a failed
        // COMMIT's outcome is unknown, so this one is indeterminate, not refused.
        result.indeterminate.push(attempt);
      } else {
        result.unexpected.push(`${res.status} ${JSON.stringify(res.body)}`);
      }
    }
  };

  const reader = async (r: number) => {
    const rand = prng(options.seed * 1000 + 500 + r);
    const api = options.targets[r % options.targets.length];
    while (writing) {
      const wallet = pick(rand, wallets);
      const detail = rand() < 0.5;
      let res;
      try {
        res = detail ? await api.get(`/wallets/${wallet.id}`) : await api.get(`/transactions?walletId=${wallet.id}&limit=20`);
      } catch {
        if (options.stop?.()) return;
        result.badReads.push(`read of ${wallet.id} failed at the connection`);
        return;
      }
      result.reads += 1;
      if (res.status !== 200) {
        if (!options.stop?.()) result.badReads.push(`read of ${wallet.id}: ${res.status} ${JSON.stringify(res.body)}`);
        continue;
      }
      const balances: number[] = detail
        ? [...res.body.balance.map((b: { balance: number }) => b.balance), ...res.body.transactions.map((t: { balance: number }) => t.balance)]
        : [res.body.balance.balance, ...res.body.transactions.map((t: { balance: number }) => t.balance)];
      for (const balance of balances) {
        if (typeof balance !== 'number' || balance < floorOf(wallet.id)) result.badReads.push(`wallet ${wallet.id} read with balance ${balance}`);
      }
    }
  };

  const readers = Array.from({ length: options.readers }, (_, r) => reader(r));
  await Promise.all(Array.from({ length: options.writers }, (_, w) => writer(w)));
  result.elapsedMs = performance.now() - started;
  writing = false;
  await Promise.all(readers);
  result.transfersPerSecond = Math.round(((result.acknowledged.length + result.refused) * 1000) / result.elapsedMs);
  return result;
}
