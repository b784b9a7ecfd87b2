// Ledger invariants checked after every load run, straight in the database (CONTRACT §4):
// conservation (sum of balances = everything seeded, and = what the harness seeded), no
// negative balance, every balance = its credits - debits, every history's running balance
// chain consistent, and transfer rows added during the run vs. 201s counted by autocannon.

export async function ledgerState(pool) {
  const { rows } = await pool.query(`
    SELECT (SELECT coalesce(sum(amount), 0) FROM balances)::text AS total,
           (SELECT coalesce(sum(amount), 0) FROM transactions WHERE kind = 'seed')::text AS seeded,
           (SELECT count(*) FROM balances WHERE amount < 0)::int AS negative,
           (SELECT count(*) FROM transactions WHERE kind = 'transfer')::int AS transfers`);
  return rows[0];
}

export async function verifyLedger(pool, expectedSeededMinor) {
  const state = await ledgerState(pool);
  const mismatched = await pool.query(`
    WITH moves AS (
      SELECT to_wallet_id AS wallet_id, asset_id, amount AS delta FROM transactions
      UNION ALL
      SELECT from_wallet_id, asset_id, -amount FROM transactions WHERE from_wallet_id IS NOT NULL
    ), sums AS (SELECT wallet_id, asset_id, sum(delta) AS total FROM moves GROUP BY 1, 2)
    SELECT count(*)::int AS n FROM sums s FULL JOIN balances b USING (wallet_id, asset_id)
     WHERE coalesce(s.total, 0) <> coalesce(b.amount, 0)`);
  const brokenChain = await pool.query(`
    WITH entries AS (
      SELECT to_wallet_id AS wallet_id, asset_id, seq, amount AS delta, to_balance AS balance FROM transactions
      UNION ALL
      SELECT from_wallet_id, asset_id, seq, -amount, from_balance FROM transactions WHERE from_wallet_id IS NOT NULL
    ), chain AS (
      SELECT delta, balance, lag(balance) OVER (PARTITION BY wallet_id, asset_id ORDER BY seq) AS previous FROM entries
    )
    SELECT count(*)::int AS n FROM chain WHERE coalesce(previous, 0) + delta <> balance`);
  const problems = [];
  if (state.total !== state.seeded) problems.push(`sum of balances ${state.total} != sum of seeds ${state.seeded}`);
  if (BigInt(state.seeded) !== expectedSeededMinor) problems.push(`seeded ${state.seeded} != expected ${expectedSeededMinor}`);
  if (state.negative > 0) problems.push(`${state.negative} negative balances`);
  if (mismatched.rows[0].n > 0) problems.push(`${mismatched.rows[0].n} balances differ from credits - debits`);
  if (brokenChain.rows[0].n > 0) problems.push(`${brokenChain.rows[0].n} history entries break the running balance chain`);
  return { ok: problems.length === 0, problems, total: state.total, seeded: state.seeded, transfers: state.transfers };
}

/**
 * Waits until the arm is idle: no transaction row added and no query running in its database
 * for `quietMs`. Requests still queued in a server when the load generator stops keep running
 * (a slow GraphQL server may work for seconds), and must not run into the next arm's run.
 */
export async function settle(pool, { quietMs = 300, maxMs = 30_000 } = {}) {
  // The identity sequence of transactions moves with every insert and costs nothing to read
  // (max(seq) would scan the table: seq has no index).
  const state = async () =>
    (
      await pool.query(`SELECT pg_sequence_last_value(pg_get_serial_sequence('transactions', 'seq'))::text AS seq,
        (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'
            AND state = 'active' AND pid <> pg_backend_pid())::int AS active`)
    ).rows[0];
  const started = Date.now();
  let previous = await state();
  while (Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const current = await state();
    if (current.seq === previous.seq && current.active === 0 && previous.active === 0) return;
    previous = current;
  }
}
