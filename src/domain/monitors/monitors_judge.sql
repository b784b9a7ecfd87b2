-- monitors_judge: the balance monitors (CONTRACT §20) that ONE change of one wallet's balance row
-- in one currency crosses, each written as a crossing with its `balance.threshold_crossed` event
-- (ledger_emit) in the caller's database transaction. Installed by migrate() like ledger_post
-- (src/db/routines.ts); called through monitors_changed, never on its own.
--
-- A monitor crosses when the change takes its condition (`field operator value`) from false to
-- true, judged on the values just before and just after the change: edge-triggered, so a change
-- that leaves the condition true (or false) writes nothing, and a monitor fires again only after
-- a change made it false. No state is kept between changes: the values before and after decide.
--
-- Which monitors are read: the wallet's own, and the project's monitors without a wallet when the
-- wallet is a customer's, of this currency and of a field that changed, whose `value` lies
-- between the values before and after (an index range: balance_monitors_wallet_idx and
-- balance_monitors_project_idx). Every crossing lies in that range (lt: before ≥ value > after;
-- lte: before > value ≥ after; gt: before ≤ value < after; gte: before < value ≤ after), so a
-- monitor outside it, or on another wallet, is never looked at.
--
-- Invariants:
-- * The caller holds the wallet's row lock (every posting routine does), so the changes of one
--   wallet are judged one at a time in commit order, on any number of instances: each crossing
--   is written exactly once, and only if the change commits (a refused or rolled-back posting,
--   or a dry run, takes its crossings with it).
-- * `value`, `previous` and `current` are minor units of the currency; `previous`/`current` are
--   the monitored field's values before and after the change.
-- Returns how many crossings it wrote.
CREATE OR REPLACE FUNCTION monitors_judge(
  p_project integer, p_asset uuid, p_wallet uuid, p_customer boolean,
  p_balance_before bigint, p_balance_after bigint, p_available_before bigint, p_available_after bigint,
  p_tx uuid, p_hold uuid, p_at timestamp with time zone
) RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  v_crossing record;
  v_id uuid;
  v_count integer := 0;
BEGIN
  FOR v_crossing IN
    SELECT m.id, m.field, m.operator, m.value, c.before, c.after
      FROM (VALUES ('balance', p_balance_before, p_balance_after), ('available', p_available_before, p_available_after)) AS c (field, before, after)
      CROSS JOIN LATERAL (
        SELECT o.id, o.seq, o.field, o.operator, o.value FROM balance_monitors o
         WHERE o.wallet_id = p_wallet AND o.asset_id = p_asset AND o.field = c.field
           AND o.value BETWEEN least(c.before, c.after) AND greatest(c.before, c.after)
        UNION ALL
        SELECT o.id, o.seq, o.field, o.operator, o.value FROM balance_monitors o
         WHERE p_customer AND o.wallet_id IS NULL AND o.project_id = p_project AND o.asset_id = p_asset AND o.field = c.field
           AND o.value BETWEEN least(c.before, c.after) AND greatest(c.before, c.after)
      ) m
     WHERE c.before <> c.after
       AND CASE m.operator
             WHEN 'lt' THEN c.before >= m.value AND c.after < m.value
             WHEN 'lte' THEN c.before > m.value AND c.after <= m.value
             WHEN 'gt' THEN c.before <= m.value AND c.after > m.value
             ELSE c.before < m.value AND c.after >= m.value
           END
     ORDER BY m.seq
  LOOP
    INSERT INTO balance_crossings (project_id, monitor_id, wallet_id, asset_id, field, operator, value, previous, current, transaction_id, hold_id, created_at)
      VALUES (p_project, v_crossing.id, p_wallet, p_asset, v_crossing.field, v_crossing.operator, v_crossing.value, v_crossing.before, v_crossing.after,
              p_tx, p_hold, p_at)
      RETURNING id INTO v_id;
    PERFORM ledger_emit(p_project, 'balance.threshold_crossed', v_id, NULL, p_at);
    v_count := v_count + 1;
  END LOOP;
  RETURN v_count;
END
$fn$;
