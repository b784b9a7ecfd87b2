-- limits_used: what a wallet has used of a limit of `p_window` seconds in one currency and
-- direction at `p_now` (CONTRACT §19). Installed by migrate() like ledger_post; called by
-- the reads (GET /wallets/{id}/limits, GraphQL Wallet.limits). Reads only; writes nothing.
-- The rule itself is limits_window_used.sql (limits_check, on the hot path, uses it too), here
-- against the wallet's balance row in the currency; 0 without one.
CREATE OR REPLACE FUNCTION limits_used(p_project integer, p_wallet uuid, p_asset uuid, p_direction text, p_window integer, p_now timestamp with time zone) RETURNS bigint
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  v_used bigint;
BEGIN
  -- one statement per direction, each with its direction a constant (only that side's descent
  -- planned), each plan kept for the session: a page of usages calls this once per limit
  IF p_direction = 'debit' THEN
    SELECT u.used INTO v_used FROM balances b
      CROSS JOIN LATERAL limits_window_used(p_project, p_wallet, p_asset, 'debit', p_window, p_now, b.debited, b.held) u
     WHERE b.wallet_id = p_wallet AND b.asset_id = p_asset;
  ELSE
    SELECT u.used INTO v_used FROM balances b
      CROSS JOIN LATERAL limits_window_used(p_project, p_wallet, p_asset, 'credit', p_window, p_now, b.credited, 0) u
     WHERE b.wallet_id = p_wallet AND b.asset_id = p_asset;
  END IF;
  RETURN coalesce(v_used, 0);
END
$fn$;
