-- limits_used: what a wallet has used of a limit of `p_window` seconds in one currency and
-- direction at `p_now` (CONTRACT §19). Installed by migrate() like ledger_post; called by
-- the reads (GET /wallets/{id}/limits, GraphQL Wallet.limits). Reads only; writes nothing.
-- The rule itself is limits_window_used.sql (limits_check, on the hot path, uses it too), here
-- against the wallet's balance row in the currency; 0 without one.
CREATE OR REPLACE FUNCTION limits_used(p_project integer, p_wallet uuid, p_asset uuid, p_direction text, p_window integer, p_now timestamp with time zone) RETURNS bigint
LANGUAGE sql STABLE AS $fn$
  SELECT coalesce((SELECT u.used FROM balances b
                     CROSS JOIN LATERAL limits_window_used(p_project, p_wallet, p_asset, p_direction, p_window, p_now,
                                                           CASE WHEN p_direction = 'debit' THEN b.debited ELSE b.credited END, b.held) u
                    WHERE b.wallet_id = p_wallet AND b.asset_id = p_asset), 0)
$fn$;
