import { Migration } from '@mikro-orm/migrations';

/**
 * Postings remember the idempotent request that made them. `request_key` (a digest of owner,
 * Idempotency-Key and request fingerprint) is written in the posting's own transaction, so a
 * request retried after its first attempt died between the posting's commit and the storing of
 * its answer (or after a 5xx released the key) finds its posting instead of posting again.
 */
export class Migration20261121020000_posting_request_key extends Migration {
  override up(): void {
    this.addSql(`ALTER TABLE transactions ADD COLUMN request_key text`);
    // project_id leads, so the index can be distributed by project (CONTRACT §9)
    this.addSql(`CREATE UNIQUE INDEX transactions_request_key_idx ON transactions (project_id, request_key) WHERE request_key IS NOT NULL`);
    this.addSql(`DROP FUNCTION ledger_post(integer[], uuid[], uuid[], uuid[], bigint[])`);
    this.addSql(LEDGER_POST);
  }
}

// Frozen: the function as this migration installed it. The current definition is
// src/domain/ledger/ledger_post.sql, installed by migrate() after the migrations.
const LEDGER_POST = `
CREATE FUNCTION ledger_post(
  p_project integer[], p_asset uuid[], p_from uuid[], p_to uuid[], p_amount bigint[], p_request text[]
) RETURNS TABLE (
  idx integer, code text, tx_id uuid, tx_seq bigint, from_balance bigint, to_balance bigint, posted_at timestamptz
) LANGUAGE plpgsql AS $fn$
DECLARE
  v_status_from text;
  v_status_to text;
  v_to_current bigint;
  v_same boolean;
BEGIN
  PERFORM 1 FROM wallets WHERE id = ANY (p_from || p_to) ORDER BY id FOR NO KEY UPDATE;
  FOR i IN 1 .. coalesce(array_length(p_amount, 1), 0) LOOP
    idx := i; tx_id := NULL; tx_seq := NULL; from_balance := NULL; to_balance := NULL; posted_at := NULL;
    IF p_request[i] IS NOT NULL THEN
      -- A retried request that was already posted answers that posting, as it was (and only if
      -- it is the same movement: a key is never allowed to stand for another one).
      SELECT t.id, t.seq, t.from_balance, t.to_balance, t.created_at,
             (t.asset_id = p_asset[i] AND t.from_wallet_id IS NOT DISTINCT FROM p_from[i]
              AND t.to_wallet_id = p_to[i] AND t.amount = p_amount[i])
        INTO tx_id, tx_seq, from_balance, to_balance, posted_at, v_same
        FROM transactions t WHERE t.project_id = p_project[i] AND t.request_key = p_request[i];
      IF FOUND THEN
        IF v_same THEN
          code := 'ok';
        ELSE
          code := 'request_key_mismatch';
          tx_id := NULL; tx_seq := NULL; from_balance := NULL; to_balance := NULL; posted_at := NULL;
        END IF;
        RETURN NEXT;
        CONTINUE;
      END IF;
    END IF;
    SELECT status INTO v_status_to FROM wallets WHERE id = p_to[i];
    IF p_from[i] IS NULL THEN
      v_status_from := 'active';
    ELSE
      SELECT status INTO v_status_from FROM wallets WHERE id = p_from[i];
    END IF;
    IF v_status_from IS DISTINCT FROM 'active' OR v_status_to IS DISTINCT FROM 'active' THEN
      code := 'wallet_inactive';
      RETURN NEXT;
      CONTINUE;
    END IF;
    SELECT amount INTO v_to_current FROM balances WHERE wallet_id = p_to[i] AND asset_id = p_asset[i];
    IF coalesce(v_to_current, 0) > 9223372036854775807 - p_amount[i] THEN
      code := 'balance_overflow';
      RETURN NEXT;
      CONTINUE;
    END IF;
    IF p_from[i] IS NOT NULL THEN
      UPDATE balances SET amount = amount - p_amount[i]
        WHERE wallet_id = p_from[i] AND asset_id = p_asset[i] AND amount >= p_amount[i]
        RETURNING amount INTO from_balance;
      IF NOT FOUND THEN
        code := 'insufficient_funds';
        RETURN NEXT;
        CONTINUE;
      END IF;
    END IF;
    IF v_to_current IS NULL THEN
      -- A wallet's first balance in an asset: hold the asset against a concurrent delete
      -- (which locks it FOR UPDATE and refuses once any balance row exists).
      PERFORM 1 FROM assets WHERE id = p_asset[i] FOR KEY SHARE;
      IF NOT FOUND THEN
        code := 'asset_missing';
        RETURN NEXT;
        CONTINUE;
      END IF;
      INSERT INTO balances (wallet_id, asset_id, project_id, amount)
        VALUES (p_to[i], p_asset[i], p_project[i], p_amount[i])
        RETURNING amount INTO to_balance;
    ELSE
      UPDATE balances SET amount = amount + p_amount[i]
        WHERE wallet_id = p_to[i] AND asset_id = p_asset[i]
        RETURNING amount INTO to_balance;
    END IF;
    INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, request_key)
      VALUES (p_project[i], p_asset[i], CASE WHEN p_from[i] IS NULL THEN 'seed' ELSE 'transfer' END,
              p_from[i], p_to[i], p_amount[i], from_balance, to_balance, p_request[i])
      RETURNING id, seq, created_at INTO tx_id, tx_seq, posted_at;
    code := 'ok';
    RETURN NEXT;
  END LOOP;
END
$fn$`;
