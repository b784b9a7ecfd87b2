import { entryHash, GENESIS_HASH } from './journal-chain.js';
import type { JournalRepository } from './journal.repository.js';
import type { StoredEntry, VerifyReport } from './journal.types.js';

/**
 * Entries per statement. Each chunk is one short statement on a pooled connection, given back
 * before the chunk is hashed, so a journal of any length is verified without holding a
 * connection or the event loop for long, and without meeting the request's statement time-out
 * (LEDGER_STATEMENT_TIMEOUT_MS, CONTRACT §18): 2,000 entries read in tens of milliseconds and hash
 * in about as long.
 */
export const VERIFY_CHUNK = 2_000;

/** Wallets per balance statement. */
export const BALANCE_CHUNK = 2_000;

type Break = Extract<VerifyReport, { ok: false }>;

/**
 * Verifies a project's journal (CONTRACT §22), for the REST route and the offline CLI alike.
 *
 * 1. The chain, from seq 1 to the head read at the start, in chunks (the next chunk is read while
 *    the current one is hashed): each entry's seq follows the previous one, its prevHash is the
 *    previous entry's hash, and its hash recomputes from its transaction as stored now. Entries
 *    are append-only, so chunks read in different snapshots still form one chain.
 * 2. The balances: each wallet's stored balance, less what the transactions after the verified
 *    head moved (read in the same statement, so the same snapshot), must equal the sum of its
 *    movements in the verified entries, summed in step 1: one bigint per (wallet, currency) that
 *    the journal moves is what verify keeps in memory, never the entries.
 */
export class JournalVerifier {
  constructor(private readonly repository: JournalRepository) {}

  /** `signal`: the caller no longer wants the answer; checked before each statement, so a verify stops within one chunk. */
  async verify(projectId: number, signal?: AbortSignal): Promise<VerifyReport> {
    const head = await this.repository.head(projectId);
    const lastSeq = head?.seq ?? 0n;
    const sums = new Map<string, bigint>();
    let prevHash = GENESIS_HASH;
    let checked = 0n;
    let next: Promise<StoredEntry[]> | null = lastSeq > 0n ? this.repository.entries(projectId, 0n, lastSeq, VERIFY_CHUNK) : null;
    while (next) {
      const entries = await next;
      const last = entries.at(-1);
      signal?.throwIfAborted();
      next = last && BigInt(last.seq) < lastSeq ? this.repository.entries(projectId, BigInt(last.seq), lastSeq, VERIFY_CHUNK) : null;
      for (const entry of entries) {
        checked += 1n;
        const { transaction } = entry;
        if (BigInt(entry.seq) !== checked || entry.prevHash !== prevHash || !transaction || entryHash(prevHash, transaction) !== entry.hash) {
          // the chunk read ahead ends first: its connection is back before the caller gives the slot back
          await next?.catch(() => undefined);
          return broken(Number(checked), 'hash_mismatch', entry);
        }
        prevHash = entry.hash;
        if (transaction.fromWalletId) add(sums, `${transaction.fromWalletId} ${transaction.assetId}`, -transaction.amount);
        if (transaction.toWalletId) add(sums, `${transaction.toWalletId} ${transaction.assetId}`, transaction.amount);
      }
      if (entries.length === 0) next = null;
    }
    if (checked !== lastSeq) return { ok: false, entries: Number(checked), reason: 'hash_mismatch', seq: Number(checked + 1n), transactionId: null, walletId: null };
    const wallet = await this.balanceBreak(projectId, lastSeq, sums, signal);
    if (wallet) return { ok: false, entries: Number(checked), reason: 'balance_mismatch', seq: null, transactionId: null, walletId: wallet };
    return { ok: true, entries: Number(checked), lastSeq: Number(lastSeq), lastHash: prevHash };
  }

  /** The first wallet (by address) whose balance differs from its journal's movements, or null. */
  private async balanceBreak(projectId: number, lastSeq: bigint, sums: Map<string, bigint>, signal?: AbortSignal): Promise<string | null> {
    let after = '';
    for (;;) {
      signal?.throwIfAborted();
      const rows = await this.repository.journaledBalances(projectId, lastSeq, after, BALANCE_CHUNK);
      for (const row of rows) {
        if (row.assetId === null || row.amount === null) continue;
        const key = `${row.walletId} ${row.assetId}`;
        if ((sums.get(key) ?? 0n) !== row.amount) return row.walletId;
        sums.delete(key);
      }
      if (rows.length === 0) break;
      const lastAddress = rows.at(-1)!.address;
      // a page ends with a whole wallet: its balance rows come together
      if (new Set(rows.map((r) => r.walletId)).size < BALANCE_CHUNK) break;
      after = lastAddress;
    }
    // movements of a wallet that has no balance row left
    for (const [key, sum] of sums) if (sum !== 0n) return key.split(' ')[0];
    return null;
  }
}

function add(sums: Map<string, bigint>, key: string, amount: bigint): void {
  sums.set(key, (sums.get(key) ?? 0n) + amount);
}

function broken(checked: number, reason: Break['reason'], entry: StoredEntry): Break {
  return { ok: false, entries: checked, reason, seq: Number(entry.seq), transactionId: entry.transactionId, walletId: null };
}
