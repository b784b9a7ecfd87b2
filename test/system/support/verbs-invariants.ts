import type { Queryable } from './invariants.js';
import { sum } from './money.js';
import type { Bank } from './provision.js';
import type { VerbsRunResult } from './verbs-bank.js';

/**
 * CONTRACT §4 with §10–§12, in SQL: running balance chains (@mint as a receiver included), each
 * balance = credits − debits, tx_count, conservation (seeded − returned to @mint = sum of
 * balances), every acknowledged transaction exactly once and nothing else, `held` = the pending
 * holds it reserves (≤ the balance), each hold settled at most once as acknowledged, and every
 * original's reversed_amount = the sum of its reversals, never above its amount.
 */
export async function verbsViolations(
  db: Queryable,
  bank: Bank,
  funding: { id: string; from: string; to: string; amount: bigint }[],
  run: VerbsRunResult,
  /** The asset's points expire (CONTRACT §15): expiry transactions (to @expired) are the ledger's own, and leave the sum. */
  options: { expiring?: boolean } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const rows = await db.query<{ id: string; kind: string; from_wallet_id: string | null; to_wallet_id: string | null; amount: string; from_balance: string | null; to_balance: string | null; reverses: string | null; reversed_amount: string; hold_id: string | null }>(
    `SELECT id, kind, from_wallet_id, to_wallet_id, amount::text, from_balance::text, to_balance::text, reverses, reversed_amount::text, hold_id
       FROM transactions WHERE project_id = $1 ORDER BY seq`,
    [bank.projectId],
  );
  const stored = await db.query<{ wallet_id: string; amount: string; held: string; tx_count: string }>(`SELECT wallet_id, amount::text, held::text, tx_count::text FROM balances WHERE project_id = $1`, [bank.projectId]);
  const holds = await db.query<{ id: string; from_wallet_id: string; amount: string; status: string; captured_amount: string; transaction_id: string | null; expired: boolean }>(
    `SELECT id, from_wallet_id, amount::text, status, captured_amount::text, transaction_id, (expires_at <= now()) AS expired FROM holds WHERE project_id = $1`,
    [bank.projectId],
  );

  const replayed = new Map<string, bigint>();
  const moved = new Map<string, number>();
  for (const row of rows) {
    const amount = BigInt(row.amount);
    if (row.from_wallet_id) {
      const after = (replayed.get(row.from_wallet_id) ?? 0n) - amount;
      if (after < 0n || String(after) !== row.from_balance) problems.push(`tx ${row.id}: from_balance ${row.from_balance}, replay ${after}`);
      replayed.set(row.from_wallet_id, after);
      moved.set(row.from_wallet_id, (moved.get(row.from_wallet_id) ?? 0) + 1);
    }
    if (row.to_wallet_id) {
      const after = (replayed.get(row.to_wallet_id) ?? 0n) + amount;
      if (String(after) !== row.to_balance) problems.push(`tx ${row.id}: to_balance ${row.to_balance}, replay ${after}`);
      replayed.set(row.to_wallet_id, after);
      moved.set(row.to_wallet_id, (moved.get(row.to_wallet_id) ?? 0) + 1);
    }
  }
  const balances = new Map(stored.map((b) => [b.wallet_id, BigInt(b.amount)]));
  for (const b of stored) {
    if (BigInt(b.amount) !== (replayed.get(b.wallet_id) ?? 0n)) problems.push(`wallet ${b.wallet_id}: balance ${b.amount}, credits − debits ${replayed.get(b.wallet_id)}`);
    if (Number(b.tx_count) !== (moved.get(b.wallet_id) ?? 0)) problems.push(`wallet ${b.wallet_id}: tx_count ${b.tx_count}, moved ${moved.get(b.wallet_id) ?? 0}`);
    if (BigInt(b.held) < 0n || BigInt(b.held) > BigInt(b.amount)) problems.push(`wallet ${b.wallet_id}: held ${b.held} outside 0..${b.amount}`);
    const reserving = sum(holds.filter((h) => h.from_wallet_id === b.wallet_id && h.status === 'pending').map((h) => BigInt(h.amount)));
    if (reserving !== BigInt(b.held)) problems.push(`wallet ${b.wallet_id}: held ${b.held}, its pending holds ${reserving}`);
  }
  // Conservation: seeded − returned to @mint − expired = the sum of all balances.
  const seeded = sum(rows.filter((r) => r.from_wallet_id === null).map((r) => BigInt(r.amount)));
  const expiries = rows.filter((r) => r.kind === 'expiry');
  const expired = sum(expiries.map((r) => BigInt(r.amount)));
  const returned = sum(rows.filter((r) => r.to_wallet_id === null && r.kind !== 'expiry').map((r) => BigInt(r.amount)));
  if (seeded !== sum(bank.seeds.map((s) => s.amount))) problems.push(`seed rows ${seeded}, seeded ${sum(bank.seeds.map((s) => s.amount))}`);
  if (seeded - returned - expired !== sum(balances.values())) problems.push(`seeded ${seeded} − returned ${returned} − expired ${expired} ≠ balances ${sum(balances.values())}`);
  if (expiries.length > 0 && !options.expiring) problems.push(`${expiries.length} expiry transactions on an asset that does not expire`);

  // Every acknowledged transaction exactly once, as acknowledged; nothing else posted.
  const byId = new Map(rows.map((r) => [r.id, r]));
  const acknowledged = [...funding.map((f) => ({ ...f, kind: 'transfer' })), ...run.transactions];
  for (const ack of acknowledged) {
    const row = byId.get(ack.id);
    if (!row) problems.push(`acknowledged ${ack.id} missing`);
    else if (row.from_wallet_id !== ack.from || row.to_wallet_id !== ack.to || BigInt(row.amount) !== ack.amount) problems.push(`acknowledged ${ack.id} stored as ${JSON.stringify(row)}`);
  }
  if (new Set(acknowledged.map((a) => a.id)).size !== acknowledged.length) problems.push('a transaction id was acknowledged twice');
  if (rows.length !== acknowledged.length + bank.seeds.length + expiries.length) {
    problems.push(`${rows.length} transactions posted, ${acknowledged.length + bank.seeds.length} acknowledged (and ${expiries.length} expiries)`);
  }

  // Reversals: each original's reversed_amount is the sum of its reversals, never above its amount.
  const reversedSum = new Map<string, bigint>();
  for (const r of rows) if (r.reverses) reversedSum.set(r.reverses, (reversedSum.get(r.reverses) ?? 0n) + BigInt(r.amount));
  for (const r of rows) {
    if (BigInt(r.reversed_amount) !== (reversedSum.get(r.id) ?? 0n)) problems.push(`tx ${r.id}: reversed_amount ${r.reversed_amount}, reversals ${reversedSum.get(r.id) ?? 0n}`);
    if (BigInt(r.reversed_amount) > BigInt(r.amount)) problems.push(`tx ${r.id}: reversed above its amount`);
  }

  // Holds: every acknowledged one exists; captured at most once, as the client was told; others not captured.
  const captures = new Map<string, number>();
  for (const r of rows) if (r.hold_id) captures.set(r.hold_id, (captures.get(r.hold_id) ?? 0) + 1);
  if (holds.length !== run.holds.size) problems.push(`${holds.length} holds stored, ${run.holds.size} acknowledged`);
  for (const h of holds) {
    const told = run.holds.get(h.id);
    if (!told) {
      problems.push(`unacknowledged hold ${h.id}`);
      continue;
    }
    if ((captures.get(h.id) ?? 0) > 1) problems.push(`hold ${h.id} captured ${captures.get(h.id)} times`);
    if (told.captured !== null) {
      if (h.status !== 'captured' || BigInt(h.captured_amount) !== told.captured || captures.get(h.id) !== 1) problems.push(`hold ${h.id}: told captured ${told.captured}, stored ${JSON.stringify(h)}`);
    } else if (h.status === 'captured' || captures.has(h.id)) {
      problems.push(`hold ${h.id} captured without an acknowledgement`);
    }
    if (told.voided && h.status !== 'voided') problems.push(`hold ${h.id}: told voided, stored ${h.status}`);
    if (told.expiresIn === null && h.status === 'expired') problems.push(`hold ${h.id} without expiry is expired`);
  }
  return problems;
}
