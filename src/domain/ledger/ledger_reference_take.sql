-- ledger_reference_take: reserves a request's reference (CONTRACT §12) for the posting `p_id`
-- before its movement; NULL when reserved, else detail {existingId} of the transaction or hold
-- that has it. References are unique per project across transactions and holds
-- (ledger_references). Called by ledger_apply (transfers and seeds), ledger_reverse and
-- holds_create; ledger_apply removes the reservation when the request is then refused.
--
-- A concurrent request with the same reference waits on the key (ON CONFLICT) and then sees it
-- taken, or free if that one was refused; the look-up of the holder is its own statement, so it
-- sees a holder committed meanwhile.
CREATE OR REPLACE FUNCTION ledger_reference_take(p_project integer, p_reference text, p_id uuid) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO ledger_references (project_id, reference, id) VALUES (p_project, p_reference, p_id)
    ON CONFLICT DO NOTHING;
  IF FOUND THEN
    RETURN NULL;
  END IF;
  RETURN (SELECT jsonb_build_object('existingId', r.id) FROM ledger_references r WHERE r.project_id = p_project AND r.reference = p_reference);
END
$fn$;
