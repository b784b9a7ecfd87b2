-- wallet_groups_watch: the first half of keeping wallet groups' running sums (CONTRACT §29) around
-- a batch that changes balances (ledger_post, holds_sweep, lots_sweep). Called only when a wallet
-- of the batch is in a group (the caller read `wallets.group_id` with the wallet row it locked),
-- so a ledger without groups never runs it.
--
-- Takes the tree lock of each of the wallets' projects in SHARED mode (the advisory lock that
-- membership and tree changes take exclusively, wallet-group.repository.ts): from here to the
-- commit, no group of those projects moves and no wallet changes group, so the `path`s that
-- wallet_groups_roll reads are the ones these balances roll up into. Lock order: the wallet rows
-- first (the caller), then the tree; a membership change takes them in the same order and a tree
-- change takes no wallet row, so nothing waits in a circle.
-- (The sweepers go on to lock further wallets after it, but with SKIP LOCKED: they never wait on one.)
--
-- Returns the wallets' balance rows as they are now, before the batch: wallet_groups_roll adds
-- what changed since to every group on the way up, whatever changed it (movements, holds, lot
-- expiries, released expired holds).
CREATE OR REPLACE FUNCTION wallet_groups_watch(p_wallets uuid[]) RETURNS balances[] LANGUAGE plpgsql AS $fn$
DECLARE
  v_before balances[];
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('wallet_groups'), t.project_id)
     FROM (SELECT DISTINCT w.project_id FROM wallets w WHERE w.id = ANY (p_wallets) ORDER BY w.project_id) t;
  SELECT coalesce(array_agg(b), '{}') INTO v_before FROM balances b WHERE b.wallet_id = ANY (p_wallets);
  RETURN v_before;
END
$fn$;
