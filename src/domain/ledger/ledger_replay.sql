-- ledger_replay: the transaction a request key already made (CONTRACT §13), for the request kinds
-- that make one (transfer, seed, capture, reverse): at most one row, `same` when the request is
-- the same movement (asset, both wallets, the amount when given, and for a capture or reversal
-- the same hold or original). ledger_apply answers a replay with it, as it was, and writes nothing.
-- (A hold and a void make no transaction: holds_create and holds_void answer their replays from
-- the hold row.)
--
-- One SELECT, STABLE, no SET clause, not SECURITY DEFINER: PostgreSQL inlines it into
-- ledger_apply's statement, which stays one unique-index probe (transactions_request_key_idx) and
-- no call of its own on the path of every posting.
CREATE OR REPLACE FUNCTION ledger_replay(
  p_kind text, p_project integer, p_asset uuid, p_from uuid, p_to uuid, p_amount bigint, p_request text, p_target uuid
) RETURNS TABLE (
  tx_id uuid, tx_seq bigint, from_balance bigint, to_balance bigint, posted_at timestamp with time zone, hold_id uuid, same boolean
) LANGUAGE sql STABLE AS $fn$
  SELECT t.id, t.seq, t.from_balance, t.to_balance, t.created_at, t.hold_id,
         (t.asset_id = p_asset AND t.from_wallet_id IS NOT DISTINCT FROM p_from AND t.to_wallet_id IS NOT DISTINCT FROM p_to
          AND (p_amount IS NULL OR t.amount = p_amount)
          AND (p_kind NOT IN ('capture', 'reverse') OR p_target IN (t.hold_id, t.reverses)))
    FROM transactions t WHERE t.project_id = p_project AND t.request_key = p_request
$fn$;
