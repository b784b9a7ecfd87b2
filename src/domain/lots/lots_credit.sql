-- lots_credit: the lot a credit creates (CONTRACT §15). Installed by migrate() like ledger_post.
-- Called by ledger_post after it recorded a credit of `p_amount` of `p_asset` to `p_wallet` in
-- transaction `p_tx` posted at `p_posted_at`, under the wallet's row lock. Only a customer
-- wallet, and only while the asset has an expiry (read now: a change applies to credits posted
-- after it), gets a lot: `expires_at` = posting time + expires_after_seconds. Any other credit
-- is funds without a lot, which never expire.
CREATE OR REPLACE FUNCTION lots_credit(
  p_project integer, p_wallet uuid, p_asset uuid, p_amount bigint, p_tx uuid, p_posted_at timestamp with time zone
) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  v_seconds integer;
BEGIN
  SELECT a.expires_after_seconds INTO v_seconds
    FROM assets a JOIN wallets w ON w.id = p_wallet AND w.type = 'customer'
   WHERE a.id = p_asset;
  IF v_seconds IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO lots (project_id, wallet_id, asset_id, amount, remaining, expires_at, created_at, credit_tx_id)
    VALUES (p_project, p_wallet, p_asset, p_amount, p_amount, p_posted_at + make_interval(secs => v_seconds), p_posted_at, p_tx);
END
$fn$;
