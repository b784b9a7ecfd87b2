import { Migration } from '@mikro-orm/migrations';

/**
 * Finding and exporting transactions (CONTRACT §21): an index for each selective filter, so a
 * search with one takes no longer at 1,000,000 transactions than at 10,000 (plans in
 * docs/decisions/transaction-search-and-export.md, bench/reads/search-plans.mjs).
 * - project + date: the newest-first list of a project (and a narrow time range in it); read
 *   forwards, the export's oldest-first cursor.
 * - `walletId`, `from`, `to` use the as-of indexes (wallet, asset, date, seq) of
 *   Migration20261123123000_as_of, one descent per currency of the wallet: no index of their own,
 *   so a posting writes no more entries for them.
 * - reference with text_pattern_ops: `reference` (equality) and `referencePrefix` (a range scan,
 *   whatever the database's collation).
 * - metadata: a GIN index (jsonb_path_ops) on the jsonb of the rows that have metadata, for
 *   `metadata @> '{"key": …}'` containment.
 * `reverses` already has transactions_reverses_idx (project_id, reverses).
 */
export class Migration20261126150000_transaction_search extends Migration {
  override up(): void {
    this.addSql(`CREATE INDEX transactions_project_date_idx ON transactions (project_id, created_at, seq)`);
    this.addSql(`CREATE INDEX transactions_reference_idx ON transactions (project_id, reference text_pattern_ops) WHERE reference IS NOT NULL`);
    this.addSql(`CREATE INDEX transactions_metadata_idx ON transactions USING gin ((metadata::jsonb) jsonb_path_ops) WHERE metadata IS NOT NULL`);
  }

  override down(): void {
    this.addSql(`DROP INDEX transactions_project_date_idx, transactions_reference_idx, transactions_metadata_idx`);
  }
}
