-- lots_due: "lot `l` is due at `p_at`" (CONTRACT §15), the one place this is written: still live,
-- its expires_at at or before `p_at`, and something of it not reserved by a pending hold
-- (`remaining > held`; reserved points do not expire while their hold is pending). Its expiry is
-- owed: lots_expire_due posts it, dated the lot's expires_at.
--
-- One SQL expression, IMMUTABLE, no SET clause, not SECURITY DEFINER: PostgreSQL inlines it into
-- the calling statement, so the partial indexes on live lots (lots_wallet_idx, lots_due_idx) still
-- serve it. Callers: lots_expire_due, lots_sweep.
CREATE OR REPLACE FUNCTION lots_due(l lots, p_at timestamp with time zone) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT l.live AND l.expires_at <= p_at AND l.remaining > l.held
$fn$;
