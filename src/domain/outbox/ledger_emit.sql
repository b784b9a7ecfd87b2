-- ledger_emit: the outbox write (CONTRACT §16). Every routine that commits a change calls it in
-- the same database transaction as the change, so an event exists exactly when its change does (a
-- refused or rolled-back posting leaves none).
--
-- The row names its subject (a transaction, hold or wallet id) and, for wallet.status_changed,
-- the new status; `seq` and `stream_pos` stay NULL until ledger_sequence_events numbers the
-- committed rows in commit order. No NOTIFY here: a NOTIFY makes every committing transaction take
-- one database-wide lock until its commit is flushed, which would serialise the postings' commits.
-- The instance that committed wakes the sequencer itself (src/domain/outbox/event-sequencer.ts),
-- and the sequencer's own NOTIFY, once per numbering, fans the events out.
CREATE OR REPLACE FUNCTION ledger_emit(p_project integer, p_type text, p_subject uuid, p_status text, p_at timestamp with time zone)
RETURNS void LANGUAGE sql AS $fn$
  INSERT INTO events (project_id, type, subject_id, status, created_at) VALUES (p_project, p_type, p_subject, p_status, p_at);
$fn$;
