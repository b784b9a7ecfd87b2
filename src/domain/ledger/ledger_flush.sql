-- ledger_flush: writes the transaction rows a batch deferred (ledger_post; ledger_move with
-- p_defer returned them, seq already drawn) and their `transaction.posted` events, one statement
-- each instead of two per transfer: a statement's executor start, its CHECK constraints (re-read
-- at each start) and its index descents are paid once per batch, not once per transfer
-- (bench/posting/posting-cpu.mjs). The event row is the one ledger_emit writes (CONTRACT §16: in the same
-- database transaction as its transaction); rows go in seq order, so the outbox keeps the order
-- of the movements.
CREATE OR REPLACE FUNCTION ledger_flush(p_tx transactions[]) RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO transactions OVERRIDING SYSTEM VALUE SELECT * FROM unnest(p_tx) t ORDER BY t.seq;
  INSERT INTO events (project_id, type, subject_id, status, created_at)
    SELECT t.project_id, 'transaction.posted', t.id, NULL, t.created_at FROM unnest(p_tx) t ORDER BY t.seq;
$fn$;
