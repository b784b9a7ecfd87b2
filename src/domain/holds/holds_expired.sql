-- holds_expired: "hold `h` is expired at `p_at`" (CONTRACT §10), the one place this is written.
-- A hold stored `pending` whose expires_at is at or before `p_at` is expired from that instant,
-- whether or not a posting has released it yet: readers show it `expired` (updated at its
-- expires_at) and stop counting it in `held`; the posting routines release it
-- (holds_release_expired) before they need the funds. A hold stored `expired` has been released.
-- A hold without expires_at never expires: false, never NULL, so `NOT holds_expired(…)` is right.
--
-- One SQL expression, IMMUTABLE, no SET clause, not SECURITY DEFINER: PostgreSQL inlines it into
-- the calling statement, so `holds_expired(h, now())` in a WHERE clause is planned as the two
-- comparisons themselves and keeps the partial indexes on pending holds (holds_pending_idx,
-- holds_due_idx, holds_pending_created_idx). Callers: the posting and sweeping routines
-- (src/db/routines.ts lists them) and the reads of holds and balances (TS-side SQL).
CREATE OR REPLACE FUNCTION holds_expired(h holds, p_at timestamp with time zone) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT h.status = 'pending' AND h.expires_at IS NOT NULL AND h.expires_at <= p_at
$fn$;
