// The one-statement transfer shared by the baseline server and the pgbench arm: ONE statement
// resolves project (owned by the caller), asset and both wallets, locks both balance rows in
// wallet id order, checks funds on the locked row, updates both balances and inserts the
// transaction row with both resulting balances. Nothing else is sent: no BEGIN/COMMIT (the
// statement is its own transaction), one round trip, one commit.
//
// Why it is correct under concurrency (READ COMMITTED):
// - Both rows are locked in wallet id order, so two transfers over the same pair queue instead
//   of deadlocking: `locked` takes FOR NO KEY UPDATE in that order (LockRows above the Sort);
//   when the receiver's id is the larger, the upsert that follows the debit may lock it first,
//   which is still after the sender, so still in id order.
// - After waiting for a lock, the locking SELECT returns the row's newest version, so the funds
//   check reads the committed balance; the UPDATE re-reads that version too (EvalPlanQual) and
//   subtracts from it. The CHECK (amount >= 0) of balances stays as the last line of defence.
// - The credit is an upsert (a receiver without a balance row in the asset gets one), and it
//   and the transaction row only happen when the debit did (they select FROM debit).
// Wallet status is read, not locked: a suspension racing a transfer may let that one transfer
// through (the service locks the wallet rows; this yardstick does not pay for that).

const WALLET_KEY = {
  id: (p) => `id = ${p}::uuid`,
  address: (p) => `address = ${p}`,
  seq: (p) => `seq = ${p}::bigint`, // pgbench: it cannot hold uuids, only integers
};

/**
 * `param(name)` spells a parameter (`$1` for node-postgres, `:name` for pgbench); names:
 * project, owner, currency, amount (major units, decimal text), from, to.
 */
export function transferSql({ from = 'id', to = 'id', param }) {
  const p = (name) => param(name);
  return `
WITH asset AS (
  SELECT a.id, a.fractions, ${p('amount')}::numeric * power(10::numeric, a.fractions) AS minor
    FROM projects pr JOIN assets a ON a.project_id = pr.id AND a.symbol = ${p('currency')}
   WHERE pr.id = ${p('project')} AND pr.owner_id = ${p('owner')}
), src AS (
  SELECT id, address, status FROM wallets WHERE project_id = ${p('project')} AND ${WALLET_KEY[from](p('from'))}
), dst AS (
  SELECT id, address, status FROM wallets WHERE project_id = ${p('project')} AND ${WALLET_KEY[to](p('to'))}
), move AS (
  SELECT asset.id AS asset_id, asset.minor::bigint AS amount, src.id AS from_id, dst.id AS to_id
    FROM asset, src, dst
   WHERE asset.minor = trunc(asset.minor) AND asset.minor BETWEEN 1 AND 9007199254740991
     AND src.status = 'active' AND dst.status = 'active' AND src.id <> dst.id
), locked AS (
  SELECT b.wallet_id, b.amount
    FROM balances b JOIN move m ON b.asset_id = m.asset_id AND b.wallet_id IN (m.from_id, m.to_id)
   ORDER BY b.wallet_id
     FOR NO KEY UPDATE OF b
), debit AS (
  UPDATE balances b SET amount = b.amount - m.amount, tx_count = b.tx_count + 1
    FROM move m JOIN locked l ON l.wallet_id = m.from_id AND l.amount >= m.amount
   WHERE b.wallet_id = m.from_id AND b.asset_id = m.asset_id
  RETURNING b.amount, b.tx_count
), credit AS (
  INSERT INTO balances AS b (wallet_id, asset_id, project_id, amount, tx_count)
  SELECT m.to_id, m.asset_id, ${p('project')}, m.amount, 1 FROM move m, debit
      ON CONFLICT (wallet_id, asset_id) DO UPDATE SET amount = b.amount + EXCLUDED.amount, tx_count = b.tx_count + 1
  RETURNING b.amount, b.tx_count
), posted AS (
  -- from_count / to_count: each side's position in its history (CONTRACT §14; the schema CHECKs them)
  INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count)
  SELECT ${p('project')}, m.asset_id, 'transfer', m.from_id, m.to_id, m.amount, debit.amount, credit.amount, debit.tx_count, credit.tx_count
    FROM move m, debit, credit
  RETURNING id, created_at, amount, from_balance
)
SELECT asset.fractions, asset.minor::text AS minor, src.address AS from_address, src.status AS from_status,
       dst.address AS to_address, dst.status AS to_status, src.id = dst.id AS same_wallet,
       posted.id, posted.created_at, posted.amount, posted.from_balance
  FROM (VALUES (1)) one
  LEFT JOIN asset ON true LEFT JOIN src ON true LEFT JOIN dst ON true LEFT JOIN posted ON true`;
}

/** For node-postgres: positional parameters in this order. */
export const TRANSFER_PARAMS = ['project', 'owner', 'currency', 'amount', 'from', 'to'];
export const positional = (name) => `$${TRANSFER_PARAMS.indexOf(name) + 1}`;
