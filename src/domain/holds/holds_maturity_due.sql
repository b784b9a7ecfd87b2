-- holds_maturity_due: "hold `h` is a maturing hold (CONTRACT §26) whose capture is due at `p_at`",
-- the one place this is written: stored `pending`, with a `maturity_due_at` (its `matures_at`, or a
-- minute after its last refused attempt) at or before `p_at`. A hold without one never matures:
-- false, never NULL.
--
-- One SQL expression, IMMUTABLE, inlined by PostgreSQL into the calling statement (as
-- holds_expired), so `holds_maturity_due(h, v_now)` keeps the partial indexes on pending maturing
-- holds (holds_maturing_idx, holds_maturing_due_idx). Callers: the maturity sweep
-- (holds_mature_sweep, holds_mature) and HoldRepository's discovery of due projects.
CREATE OR REPLACE FUNCTION holds_maturity_due(h holds, p_at timestamp with time zone) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT h.status = 'pending' AND h.maturity_due_at IS NOT NULL AND h.maturity_due_at <= p_at
$fn$;
