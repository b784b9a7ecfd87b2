DROP FUNCTION IF EXISTS webhook_post(integer[], uuid[], uuid[], uuid[], bigint[], text[], jsonb);
DROP FUNCTION IF EXISTS webhook_post(text[], integer[], uuid[], uuid[], uuid[], bigint[], text[], integer[], uuid[], text[], json[], integer[], jsonb);
-- webhook_post: a webhook flow's posting and its stored call in ONE statement, hence one database
-- transaction (CONTRACT §16: "the inbound webhook's stored call is written in the same transaction
-- as its posting"). Installed like ledger_post (src/db/routines.ts), after it.
--
-- It decides nothing about money: the batch goes through ledger_post unchanged, with the same
-- arguments and the same result rows. Then, for each accepted element that carries a call
-- (p_calls: a JSON array aligned with the elements, each null or
-- {"owner_id", "flow_id", "values", "message"}), it inserts that call's webhook_events row
-- (success, with the posted transaction's id). p_mature_in / p_mature_at: the maturing holds (§26)
-- the PostingQueue batched with the calls, passed on to ledger_post.
--
-- * Atomic: if an insert fails, the statement fails and every posting of the batch is rolled back
--   with it (the PostingQueue then posts the elements one by one, so only that call fails).
-- * A refused element records nothing here: the service stores the refusal (nothing moved).
-- * An element that answers an earlier posting (an idempotent retry, ledger_post's request key)
--   records nothing again: that posting's call was recorded in the posting's own transaction.
CREATE OR REPLACE FUNCTION webhook_post(
  p_kind text[], p_project integer[], p_asset uuid[], p_from uuid[], p_to uuid[], p_amount bigint[], p_request text[],
  p_group integer[], p_target uuid[], p_reference text[], p_metadata json[], p_expires_in integer[], p_calls jsonb,
  p_mature_in integer[] DEFAULT NULL::integer[], p_mature_at timestamp with time zone[] DEFAULT NULL::timestamp with time zone[]
) RETURNS TABLE (
  idx integer, code text, tx_id uuid, tx_seq bigint, from_balance bigint, to_balance bigint, posted_at timestamptz,
  hold_id uuid, detail jsonb
) LANGUAGE plpgsql AS $fn$
DECLARE
  v_call jsonb;
BEGIN
  FOR idx, code, tx_id, tx_seq, from_balance, to_balance, posted_at, hold_id, detail IN
    SELECT * FROM ledger_post(p_kind, p_project, p_asset, p_from, p_to, p_amount, p_request, p_group, p_target, p_reference, p_metadata, p_expires_in,
                                p_mature_in => p_mature_in, p_mature_at => p_mature_at)
  LOOP
    v_call := p_calls -> (idx - 1);
    IF code = 'ok' AND jsonb_typeof(v_call) = 'object'
       AND NOT EXISTS (SELECT 1 FROM webhook_events e WHERE e.transaction_id = tx_id) THEN
      INSERT INTO webhook_events (id, project_id, owner_id, flow_id, "values", success, message, transaction_id)
        VALUES (gen_random_uuid(), p_project[idx], v_call ->> 'owner_id', v_call ->> 'flow_id', v_call -> 'values', true,
                v_call ->> 'message', tx_id);
    END IF;
    RETURN NEXT;
  END LOOP;
END
$fn$;
