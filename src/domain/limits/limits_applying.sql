-- limits_applying: the limits that apply to a wallet (CONTRACT §19), oldest first, in one currency
-- and direction (NULL: every currency, every direction). Installed by migrate() like ledger_post
-- (src/db/routines.ts); called by limits_check under the posting's wallet locks, and by the reads
-- (GET /wallets/{id}/limits, GraphQL Wallet.limits) — the one place this rule is written.
--
-- A wallet's own limits for a currency and direction when it has any; otherwise, for a customer
-- wallet, the project's limits without a wallet. A system wallet is bound only by its own.
-- At most 50 limits per project: the project's limits are read through limits_applying_idx.
CREATE OR REPLACE FUNCTION limits_applying(p_wallet uuid, p_asset uuid, p_direction text) RETURNS SETOF limits
LANGUAGE sql STABLE AS $fn$
  SELECT l.* FROM wallets w JOIN limits l ON l.project_id = w.project_id
   WHERE w.id = p_wallet
     AND (p_asset IS NULL OR l.asset_id = p_asset) AND (p_direction IS NULL OR l.direction = p_direction)
     AND (l.wallet_id = w.id
          OR (l.wallet_id IS NULL AND w.type = 'customer'
              AND NOT EXISTS (SELECT 1 FROM limits o WHERE o.project_id = l.project_id AND o.asset_id = l.asset_id
                                AND o.direction = l.direction AND o.wallet_id = w.id)))
   ORDER BY l.seq
$fn$;
