-- holds_mature: one attempt at a maturing hold's capture (CONTRACT §26), called by
-- holds_mature_sweep with both of the hold's wallet rows already locked (so nothing else posts on
-- them meanwhile, and the hold, re-read here, cannot be settled under us) and the round's clock
-- reading `p_now`.
--
-- The capture is any capture (holds_capture: receiver and sender active, the receiver's credit
-- limits, the sender's debit limits its hold has aged out of — the §19 clarification — the lots of
-- an expiring asset: the receiver's credit becomes a lot like any credit), for the whole hold,
-- its `hold.captured` marked `matured`.
--
-- Its date: the first attempt is dated `matures_at` — unless either wallet already has a
-- transaction in the asset dated after it (posted during the sweep's lag), then that date, so that
-- a wallet's transactions stay dated in `seq` order and the as-of cuts stay prefixes of its
-- history (docs/decisions/as-of-reads.md). A retry after a refusal is dated when it succeeds: at
-- `matures_at` it was refused.
--
-- Refused: the hold stays pending and is tried again a minute later (`maturity_due_at`); the first
-- refusal writes `hold.maturity_refused` (its code in the event's status) and starts the 24 hours
-- after which a refused attempt voids the hold instead (holds_void: `hold.voided`).
--
-- Outcome: 'matured', 'refused', 'voided', or 'gone' (no longer due: settled meanwhile by a
-- capture or void that committed before the wallets were locked). `code` is the refusal's.
CREATE OR REPLACE FUNCTION holds_mature(
  p_project integer, p_hold uuid, p_now timestamp with time zone, OUT outcome text, OUT code text
) RETURNS record LANGUAGE plpgsql AS $fn$
DECLARE
  v_hold holds%ROWTYPE;
  v_at timestamptz;
  r record;
BEGIN
  SELECT * INTO v_hold FROM holds h WHERE h.id = p_hold AND h.project_id = p_project;
  IF NOT FOUND OR NOT holds_maturity_due(v_hold, p_now) THEN
    outcome := 'gone';
    RETURN;
  END IF;
  IF v_hold.maturity_refused_at IS NULL THEN
    SELECT greatest(v_hold.matures_at,
             (SELECT max(t.created_at) FROM transactions t WHERE t.from_wallet_id = v_hold.from_wallet_id AND t.asset_id = v_hold.asset_id
                 AND t.created_at > '-infinity' AND t.project_id = p_project),
             (SELECT max(t.created_at) FROM transactions t WHERE t.to_wallet_id = v_hold.from_wallet_id AND t.asset_id = v_hold.asset_id
                 AND t.created_at > '-infinity' AND t.project_id = p_project),
             (SELECT max(t.created_at) FROM transactions t WHERE t.from_wallet_id = v_hold.to_wallet_id AND t.asset_id = v_hold.asset_id
                 AND t.created_at > '-infinity' AND t.project_id = p_project),
             (SELECT max(t.created_at) FROM transactions t WHERE t.to_wallet_id = v_hold.to_wallet_id AND t.asset_id = v_hold.asset_id
                 AND t.created_at > '-infinity' AND t.project_id = p_project))
      INTO v_at;
  ELSE
    v_at := p_now;
  END IF;
  r := holds_capture(p_project, p_hold, NULL, NULL, v_at, true);
  IF r.code = 'ok' THEN
    outcome := 'matured';
    RETURN;
  END IF;
  IF r.code IN ('hold_missing', 'hold_not_pending', 'hold_expired') THEN
    outcome := 'gone';
    RETURN;
  END IF;
  code := r.code;
  IF v_hold.maturity_refused_at IS NOT NULL AND p_now >= v_hold.maturity_refused_at + interval '24 hours' THEN
    r := holds_void(p_project, p_hold, NULL, p_now);
    ASSERT r.code = 'ok', 'holds_mature: a pending hold under its wallets'' locks can be voided';
    outcome := 'voided';
    RETURN;
  END IF;
  UPDATE holds SET maturity_due_at = p_now + interval '1 minute', maturity_refused_at = coalesce(maturity_refused_at, p_now)
   WHERE id = p_hold AND project_id = p_project;
  IF v_hold.maturity_refused_at IS NULL THEN
    PERFORM ledger_emit(p_project, 'hold.maturity_refused', p_hold, code, p_now);
  END IF;
  outcome := 'refused';
END
$fn$;
