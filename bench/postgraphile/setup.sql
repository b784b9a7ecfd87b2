-- What a PostGraphile user adds to the ledger's schema to serve the two read workloads
-- (applied by the harness to the baseline's database, which PostGraphile reads).
--
-- Smart tags: balances and transactions have no foreign keys (the service's migrations leave
-- them out of the hot tables on purpose), so their relations are declared as tags.
COMMENT ON TABLE balances IS E'@foreignKey (wallet_id) references wallets (id)|@fieldName wallet|@foreignFieldName balancesByWalletId\n@foreignKey (asset_id) references assets (id)|@fieldName asset|@foreignFieldName balancesByAssetId';
COMMENT ON TABLE transactions IS E'@foreignKey (from_wallet_id) references wallets (id)|@fieldName fromWallet|@foreignFieldName transactionsByFromWalletId\n@foreignKey (to_wallet_id) references wallets (id)|@fieldName toWallet|@foreignFieldName transactionsByToWalletId\n@foreignKey (asset_id) references assets (id)|@fieldName asset|@foreignFieldName transactionsByAssetId';

-- Wallet.recentTransactions: sent and received, newest first. An inlinable SQL function (one
-- SELECT, STABLE), so PostgreSQL merges the two history indexes and stops at the page size.
CREATE OR REPLACE FUNCTION wallets_recent_transactions(w wallets) RETURNS SETOF transactions
LANGUAGE sql STABLE AS $$
  SELECT * FROM (
    (SELECT * FROM transactions WHERE from_wallet_id = w.id ORDER BY seq DESC)
    UNION ALL
    (SELECT * FROM transactions WHERE to_wallet_id = w.id ORDER BY seq DESC)
  ) t ORDER BY seq DESC
$$;

-- Query.walletsByIds: the `_entities` equivalent, wallets in the order asked.
CREATE OR REPLACE FUNCTION wallets_by_ids(ids uuid[]) RETURNS SETOF wallets
LANGUAGE sql STABLE AS $$
  SELECT w.* FROM unnest(ids) WITH ORDINALITY AS r (id, n) JOIN wallets w ON w.id = r.id ORDER BY r.n
$$;
