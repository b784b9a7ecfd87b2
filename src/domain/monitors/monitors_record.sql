-- monitors_record: writes one crossing (CONTRACT §20) found by monitors_crossed, as a
-- `balance_crossings` row (what the crossing saw, so its event reads the same after the monitor is
-- deleted) and its `balance.threshold_crossed` event (ledger_emit), in the caller's database
-- transaction. Callers: ledger_move and monitors_changed, once per crossing, in order.
--
-- `p_tx` the transaction, `p_hold` the hold of the change (NULL when not of that kind, both for a
-- capture); `p_at` the instant of the change, the crossing's and its event's date.
CREATE OR REPLACE FUNCTION monitors_record(
  p_project integer, p_asset uuid, p_wallet uuid, p_monitor uuid, p_field text, p_operator text, p_value bigint,
  p_previous bigint, p_current bigint, p_tx uuid, p_hold uuid, p_at timestamp with time zone
) RETURNS void LANGUAGE sql AS $fn$
  WITH crossing AS (
    INSERT INTO balance_crossings (project_id, monitor_id, wallet_id, asset_id, field, operator, value, previous, current, transaction_id, hold_id, created_at)
      VALUES (p_project, p_monitor, p_wallet, p_asset, p_field, p_operator, p_value, p_previous, p_current, p_tx, p_hold, p_at)
      RETURNING id
  )
  SELECT ledger_emit(p_project, 'balance.threshold_crossed', crossing.id, NULL, p_at) FROM crossing;
$fn$;
