import { Migration } from '@mikro-orm/migrations';

/**
 * Key management (CONTRACT §17): each key gets an `id` (what an administrator lists and revokes),
 * the `prefix` it is recognised by (its first 8 characters, kept at issue time since only the
 * digest is stored) and `revoked_at` (a revoked key stays, so its id keeps naming it, but no
 * longer authenticates nor is listed). Keys issued before this migration get a fresh id; their
 * prefix cannot be recovered from the digest and stays NULL (listed as `null`).
 */
export class Migration20261123121000_api_key_management extends Migration {
  override up(): void {
    this.addSql(`
      ALTER TABLE api_keys
        ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid() CONSTRAINT api_keys_id_key UNIQUE,
        ADD COLUMN prefix text CHECK (char_length(prefix) = 8),
        ADD COLUMN revoked_at timestamptz(3)`);
    this.addSql(`CREATE INDEX api_keys_owner_live ON api_keys (owner_id, created_at, id) WHERE revoked_at IS NULL`);
  }

  override down(): void {
    this.addSql(`DROP INDEX api_keys_owner_live`);
    this.addSql(`ALTER TABLE api_keys DROP COLUMN revoked_at, DROP COLUMN prefix, DROP COLUMN id`);
  }
}
