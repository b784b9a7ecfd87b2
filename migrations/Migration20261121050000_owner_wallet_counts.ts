import { Migration } from '@mikro-orm/migrations';

/**
 * Each owner row counts the owner's wallets of each type (`customer_wallet_count`,
 * `system_wallet_count`; the plan's limits keep the names `customer_wallets` / `system_wallets`),
 * kept by WalletService.create under the owner lock it already takes: a quota check reads one
 * row instead of counting every wallet of the owner. Wallets are never deleted. Existing wallets
 * are counted once here, under the ALTER TABLE's lock (no wallet is created meanwhile).
 */
export class Migration20261121050000_owner_wallet_counts extends Migration {
  override up(): void {
    this.addSql(`
      ALTER TABLE owners
        ADD COLUMN customer_wallet_count bigint NOT NULL DEFAULT 0 CHECK (customer_wallet_count >= 0),
        ADD COLUMN system_wallet_count bigint NOT NULL DEFAULT 0 CHECK (system_wallet_count >= 0)`);
    this.addSql(`
      UPDATE owners o SET customer_wallet_count = w.customers, system_wallet_count = w.systems
        FROM (SELECT owner_id, count(*) FILTER (WHERE type = 'customer') AS customers, count(*) FILTER (WHERE type = 'system') AS systems
                FROM wallets GROUP BY owner_id) w
       WHERE w.owner_id = o.id`);
  }
}
