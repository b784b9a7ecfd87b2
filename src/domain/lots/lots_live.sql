-- lots_live: a wallet's live lots in one asset at `p_at`, earliest expiry first (CONTRACT §15),
-- the one place this is written. A lot is live while something of it remains (`live`, a stored
-- generated column) and its expires_at is still ahead; `remaining - held` of it is free to spend
-- or reserve. Ties on expires_at are broken by id, so every reader takes lots in the same order.
--
-- One SELECT, STABLE, no SET clause, not SECURITY DEFINER: PostgreSQL inlines it where it is used
-- in FROM, so the caller's statement reads lots_wallet_idx (wallet, asset, expires_at, id, partial
-- on `live`) in order and stops when the caller does (a debit reads the lots it consumes, a page
-- of lots its page). The order is the subquery's: the callers add no join or sort of their own.
-- Callers: lots_consume, lots_reserve, the lot listing (lot.repository.ts).
CREATE OR REPLACE FUNCTION lots_live(p_wallet uuid, p_asset uuid, p_at timestamp with time zone) RETURNS SETOF lots
LANGUAGE sql STABLE AS $fn$
  SELECT l.* FROM lots l
   WHERE l.wallet_id = p_wallet AND l.asset_id = p_asset AND l.live AND l.expires_at > p_at
   ORDER BY l.expires_at, l.id
$fn$;
