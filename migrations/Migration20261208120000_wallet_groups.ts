import { Migration } from '@mikro-orm/migrations';

/**
 * Wallet groups and their roll-up balances (CONTRACT §29, docs/decisions/wallet-groups.md).
 *
 * `wallet_groups`: a project's tree of groups. `path` is the group's ancestors, root first, and
 * itself last (so `cardinality(path)` is its depth, 1 for a root, at most 8), which turns "every
 * ancestor of a wallet's group" into one `unnest` and "the subtree of G" into `G = ANY (path)`.
 * `wallets` counts the wallets of the whole subtree. Rewritten only under the project's tree lock
 * (an advisory lock, src/domain/wallet-groups/wallet-group.repository.ts).
 *
 * `wallet_group_balances`: per group and currency, the running sums of `amount` and `held` of
 * every wallet of the subtree, and `holders`, how many of them have a balance row in it (a
 * currency is listed while one does). Updated by the posting routines (wallet_groups_apply.sql,
 * once per group and currency per batch) and by membership and tree changes. numeric: the sum of
 * many bigint balances can pass 2^63. No foreign key: written inside postings (as `events`); a
 * group's rows go with it (it can only be deleted empty).
 *
 * `wallets.group_id`: the one group of a wallet, or NULL. The posting routine reads it with the
 * wallet row it locks anyway, so a wallet in no group costs no statement more.
 *
 * Every key leads with `project_id` (CONTRACT §25): a group and its sums live on its project's worker.
 */
export class Migration20261208120000_wallet_groups extends Migration {
  override up(): void {
    this.addSql(`
      CREATE TABLE wallet_groups (
        project_id integer NOT NULL REFERENCES projects (id),
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        parent_id uuid,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
        metadata jsonb,
        path uuid[] NOT NULL CHECK (cardinality(path) BETWEEN 1 AND 8 AND path[cardinality(path)] = id),
        wallets bigint NOT NULL DEFAULT 0 CHECK (wallets >= 0),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        PRIMARY KEY (project_id, id),
        FOREIGN KEY (project_id, parent_id) REFERENCES wallet_groups (project_id, id)
      )`);
    this.addSql(`CREATE INDEX wallet_groups_children_idx ON wallet_groups (project_id, parent_id, seq)`);
    // `GET /wallet-groups/{id}` and `_entities` name a group by its id alone (not unique on its own under Citus: an index, not a key)
    this.addSql(`CREATE INDEX wallet_groups_id_idx ON wallet_groups (id)`);
    this.addSql(`
      CREATE TABLE wallet_group_balances (
        project_id integer NOT NULL,
        group_id uuid NOT NULL,
        asset_id uuid NOT NULL,
        amount numeric NOT NULL DEFAULT 0,
        held numeric NOT NULL DEFAULT 0,
        holders integer NOT NULL DEFAULT 0, -- no CHECK: an ON CONFLICT update proposes a negative row first
        PRIMARY KEY (project_id, group_id, asset_id)
      )`);
    this.addSql(`ALTER TABLE wallets ADD COLUMN group_id uuid`);
    this.addSql(`ALTER TABLE wallets ADD CONSTRAINT wallets_group_fk FOREIGN KEY (project_id, group_id) REFERENCES wallet_groups (project_id, id)`);
    this.addSql(`CREATE INDEX wallets_group_idx ON wallets (project_id, group_id, seq) WHERE group_id IS NOT NULL`);
  }

  override down(): void {
    this.addSql(`DROP INDEX wallets_group_idx`);
    this.addSql(`ALTER TABLE wallets DROP COLUMN group_id`);
    this.addSql(`DROP TABLE wallet_group_balances`);
    this.addSql(`DROP TABLE wallet_groups`);
  }
}
