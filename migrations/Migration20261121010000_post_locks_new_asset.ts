import { Migration } from '@mikro-orm/migrations';

/**
 * `ledger_post` now takes a key-share lock on the asset before creating a wallet's first balance
 * row in it, and refuses the element ('asset_missing') when the asset was deleted meanwhile:
 * asset deletion checks for balance rows under FOR UPDATE, so the two serialise. The asset is
 * resolved before the posting, and without this lock a delete committing in between would leave
 * a balance and a transaction pointing at no asset.
 */
export class Migration20261121010000_post_locks_new_asset extends Migration {
  override up(): void {
    this.addSql(LEDGER_POST);
  }
}

// Frozen: the function as this migration installed it. The current definition is
// src/domain/ledger/ledger_post.sql, installed by migrate() after the migrations.
const LEDGER_POST = `
CREATE OR REPLACE FUNCTION ledger_post(
  p_project integer[], p_asset uuid[], p_from uuid[], p_to uuid[], p_amount bigint[]
) RETURNS TABLE (
  idx integer, code text, tx_id uuid, tx_seq bigint, from_balance bigint, to_balance bigint, posted_at timestamptz
) LANGUAGE plpgsql AS $fn$
DECLARE
  v_status_from text;
  v_status_to text;
  v_to_current bigint;
BEGIN
  PERFORM 1 FROM wallets WHERE id = ANY (p_from || p_to) ORDER BY id FOR NO KEY UPDATE;
  FOR i IN 1 .. coalesce(array_length(p_amount, 1), 0) LOOP
    idx := i; tx_id := NULL; tx_seq := NULL; from_balance := NULL; to_balance := NULL; posted_at := NULL;
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
    INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance)
      VALUES (p_project[i], p_asset[i], CASE WHEN p_from[i] IS NULL THEN 'seed' ELSE 'transfer' END,
              p_from[i], p_to[i], p_amount[i], from_balance, to_balance)
      RETURNING id, seq, created_at INTO tx_id, tx_seq, posted_at;
    code := 'ok';
    RETURN NEXT;
  END LOOP;
END
$fn$`;
