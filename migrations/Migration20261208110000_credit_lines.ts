import { Migration } from '@mikro-orm/migrations';

/**
 * Credit lines (CONTRACT §28): a wallet may go below zero, down to `−credit_limit`.
 *
 * - `balances.credit_limit`: the line granted in that currency (minor units, 0: none). Every
 *   spending rule reads `amount − held + credit_limit` (the debit's conditional UPDATE in
 *   ledger_move, holds_create, limits_check), so no posting takes a wallet below `−credit_limit`.
 * - `balances.credit_bound`: how far below zero `amount − held` may be as far as the row itself
 *   can tell, the CHECK's backstop. It is the limit when the line is set, or what is already used
 *   when that is more (a line lowered below its use is allowed, §28: the wallet stays where it is
 *   and only receives until `available` > 0). A CHECK sees one row, never the posting that wrote
 *   it, so it cannot tell a debit from a lowering; the exact rule (`≥ −credit_limit` after every
 *   debit) is the debit's predicate and ledger_move's ASSERT.
 *
 * The CHECKs `amount >= 0` and `held <= amount` become `amount − held >= −credit_bound`: with no
 * line (both 0) exactly the old pair (held ≥ 0 is kept), so a wallet without one never goes below zero.
 */
export class Migration20261208110000_credit_lines extends Migration {
  override up(): void {
    this.addSql(`
      ALTER TABLE balances
        ADD COLUMN credit_limit bigint NOT NULL DEFAULT 0 CHECK (credit_limit >= 0),
        ADD COLUMN credit_bound bigint NOT NULL DEFAULT 0,
        DROP CONSTRAINT balances_amount_check,
        DROP CONSTRAINT balances_held_check,
        ADD CONSTRAINT balances_held_check CHECK (held >= 0 AND credit_bound >= credit_limit AND amount - held >= -credit_bound)`);
  }
}
