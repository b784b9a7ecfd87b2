-- lots_credit: the lot a credit creates (CONTRACT §15). Installed by migrate() like ledger_post.
-- Called by ledger_move after it recorded a credit of `p_amount` of `p_asset` to `p_wallet` in
-- transaction `p_tx` posted at `p_posted_at`, under the wallet's row lock, when the asset has an
-- expiry: `p_seconds`, its expires_after_seconds as the posting read it (a change applies to
-- credits posted after it). Only a customer wallet gets a lot: `expires_at` = posting time +
-- p_seconds. Any other credit is funds without a lot, which never expire.
DROP FUNCTION IF EXISTS lots_credit(integer, uuid, uuid, bigint, uuid, timestamp with time zone);
CREATE OR REPLACE FUNCTION lots_credit(
  p_project integer, p_wallet uuid, p_asset uuid, p_amount bigint, p_tx uuid, p_posted_at timestamp with time zone, p_seconds integer
) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO lots (project_id, wallet_id, asset_id, amount, remaining, expires_at, created_at, credit_tx_id)
    SELECT p_project, p_wallet, p_asset, p_amount, p_amount, p_posted_at + make_interval(secs => p_seconds), p_posted_at, p_tx
      FROM wallets w WHERE w.id = p_wallet AND w.type = 'customer';
END
$fn$;
