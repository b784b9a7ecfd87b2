-- monitors_crossed: the balance monitors (CONTRACT §20) that ONE change of one wallet's balance
-- row in one currency crosses, the one place this is written. Callers: ledger_move (both sides of
-- a movement in one statement) and monitors_changed (every other change); they write what it
-- returns (monitors_record), in monitor order (`seq`) within one change.
--
-- A monitor crosses when the change takes its condition (`field operator value`) from false to
-- true, judged on the values just before and just after the change: edge-triggered, so a change
-- that leaves the condition true (or false) crosses nothing, and a monitor crosses again only
-- after a change made it false. No state is kept between changes: the values before and after
-- decide. `previous`/`current` are the monitored field's values before and after, in minor units.
--
-- Which monitors are read: the wallet's own, and the project's monitors without a wallet when the
-- wallet is a customer's (`p_customer`), of this currency and of a field that changed, whose
-- `value` lies between the values before and after (an index range: balance_monitors_wallet_idx
-- and balance_monitors_project_idx). Every crossing lies in that range (lt: before ≥ value >
-- after; lte: before > value ≥ after; gt: before ≤ value < after; gte: before < value ≤ after), so
-- a monitor outside it, or on another wallet, is never looked at.
--
-- One SELECT, STABLE, no SET clause, not strict, not SECURITY DEFINER: PostgreSQL inlines it where
-- it is used in FROM, so the caller's statement holds the index probes themselves (no function
-- call per change; test/domain/monitors/monitors-inlined.test.ts).
CREATE OR REPLACE FUNCTION monitors_crossed(
  p_project integer, p_asset uuid, p_wallet uuid, p_customer boolean,
  p_balance_before bigint, p_balance_after bigint, p_available_before bigint, p_available_after bigint
) RETURNS TABLE (id uuid, seq bigint, field text, operator text, value bigint, previous bigint, current bigint)
LANGUAGE sql STABLE AS $fn$
  SELECT m.id, m.seq, m.field, m.operator, m.value, c.before, c.after
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
$fn$;
