import type pg from 'pg';
import type { Database } from '../../db/database.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';
import { ownedBy } from '../ownership/ownership.sql.js';
import { groupBalancesSql, groupBalancesAsOfSql, GROUP_COLUMNS, toGroup, toGroupBalance, type RawGroup, type RawGroupBalance } from './wallet-group.sql.js';
import type { GroupBalanceView, TreeRefusal, WalletGroupView } from './wallet-group.types.js';
import { MAX_GROUP_DEPTH } from './wallet-group.rules.js';

/**
 * The project's tree lock (CONTRACT §29, docs/decisions/wallet-groups.md): a transaction-scoped
 * advisory lock per project. Every change of the tree or of a membership takes it EXCLUSIVELY, so
 * two moves never both pass the cycle and depth checks on the same old tree, and the quota is
 * counted once at a time; a batch of postings touching a grouped wallet takes it SHARED
 * (wallet_groups_watch.sql), so the paths its sums roll up along hold until it commits. Wallet
 * rows are always locked before it (postings and membership changes alike); tree changes lock
 * no wallet row.
 */
const lockTree = (client: pg.PoolClient, projectId: number) => client.query(`SELECT pg_advisory_xact_lock(hashtext('wallet_groups'), $1)`, [projectId]);

/**
 * Moves what `source` contributes to the sums (its balances and its `wallets` count) out of the
 * groups of `from` into the groups of `to` (paths: root first), in one statement: ancestors both
 * share cancel out and are not written; rows are written in key order (as the postings write them).
 */
const SHIFT = (source: string) => `
  WITH moves (group_id, sign) AS (SELECT g, -1 FROM unnest($2::uuid[]) g UNION ALL SELECT g, 1 FROM unnest($3::uuid[]) g),
       net AS (SELECT m.group_id, sum(m.sign)::integer AS sign FROM moves m GROUP BY m.group_id HAVING sum(m.sign) <> 0),
       counted AS (UPDATE wallet_groups g SET wallets = g.wallets + net.sign * $5::bigint FROM net WHERE g.project_id = $1 AND g.id = net.group_id RETURNING g.id),
       source AS (${source})
  INSERT INTO wallet_group_balances AS s (project_id, group_id, asset_id, amount, held, holders)
  SELECT $1, net.group_id, source.asset_id, net.sign * source.amount, net.sign * source.held, net.sign * source.holders
    FROM net CROSS JOIN source
   ORDER BY net.group_id, source.asset_id
  ON CONFLICT (project_id, group_id, asset_id) DO UPDATE
    SET amount = s.amount + EXCLUDED.amount, held = s.held + EXCLUDED.held, holders = s.holders + EXCLUDED.holders`;
const WALLET_SOURCE = `SELECT b.asset_id, b.amount::numeric AS amount, b.held::numeric AS held, 1 AS holders FROM balances b WHERE b.project_id = $1 AND b.wallet_id = $4`;
const GROUP_SOURCE = `SELECT b.asset_id, b.amount, b.held, b.holders FROM wallet_group_balances b WHERE b.project_id = $1 AND b.group_id = $4 AND b.holders > 0`;

interface TreeRow {
  path: string[];
  wallets: string;
}

/** SQL of wallet groups: the tree, memberships and the roll-up reads (the running sums are kept by wallet_groups_*.sql). */
export class WalletGroupRepository {
  constructor(private readonly db: Database) {}

  /** Whether the owner has this project. */
  async projectOf(ownerId: string, projectId: number): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM projects p WHERE p.id = $1 AND ${ownedBy('p', '$2')}`, [projectId, ownerId]);
    return rows.length > 0;
  }

  /** Creates a group under `parentId` (a root when null); at most `limit` per project, counted under the tree lock. */
  async create(projectId: number, group: { name: string; parentId: string | null; metadata: Record<string, unknown> | null }, limit: number): Promise<WalletGroupView | TreeRefusal> {
    return this.db.transaction(async (client) => {
      await lockTree(client, projectId);
      const { rows: counted } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM wallet_groups WHERE project_id = $1`, [projectId]);
      if (counted[0].n >= limit) return 'quota';
      let parentPath: string[] = [];
      if (group.parentId !== null) {
        const parent = await this.tree(client, projectId, group.parentId);
        if (!parent) return 'parent';
        if (parent.path.length >= MAX_GROUP_DEPTH) return 'depth';
        parentPath = parent.path;
      }
      const { rows } = await client.query<RawGroup>(
        `WITH g AS (
           INSERT INTO wallet_groups (project_id, id, parent_id, name, metadata, path, created_at, updated_at)
           SELECT $1, x.id, $2, $3, $4, $5::uuid[] || x.id, clock_timestamp()::timestamptz(3), clock_timestamp()::timestamptz(3)
             FROM (SELECT gen_random_uuid() AS id) x
           RETURNING *)
         SELECT ${GROUP_COLUMNS} FROM g`,
        [projectId, group.parentId, group.name, group.metadata, parentPath],
      );
      return toGroup(rows[0]);
    });
  }

  /**
   * Renames and/or moves a group (`parentId` undefined: stays; null: becomes a root). A move
   * shifts the subtree's sums and wallet count from the old ancestors to the new ones and
   * rewrites the subtree's paths, under the tree lock: 'cycle' when the new parent is the group
   * or under it, 'depth' when the subtree's deepest group would pass 8.
   */
  async update(projectId: number, id: string, change: { name?: string; parentId?: string | null }): Promise<WalletGroupView | TreeRefusal> {
    return this.db.transaction(async (client) => {
      await lockTree(client, projectId);
      const group = await this.tree(client, projectId, id);
      if (!group) return 'group';
      if (change.parentId !== undefined && change.parentId !== (group.path.at(-2) ?? null)) {
        let parentPath: string[] = [];
        if (change.parentId !== null) {
          const parent = await this.tree(client, projectId, change.parentId);
          if (!parent) return 'parent';
          if (parent.path.includes(id)) return 'cycle';
          parentPath = parent.path;
        }
        const { rows } = await client.query<{ deepest: number }>(
          `SELECT max(cardinality(d.path))::int AS deepest FROM wallet_groups d WHERE d.project_id = $1 AND $2 = ANY (d.path)`,
          [projectId, id],
        );
        if (parentPath.length + rows[0].deepest - group.path.length + 1 > MAX_GROUP_DEPTH) return 'depth';
        await client.query(SHIFT(GROUP_SOURCE), [projectId, group.path.slice(0, -1), parentPath, id, group.wallets]);
        await client.query(
          `UPDATE wallet_groups d SET path = $3::uuid[] || d.path[$4:], parent_id = CASE WHEN d.id = $2 THEN $5 ELSE d.parent_id END,
                  updated_at = CASE WHEN d.id = $2 THEN clock_timestamp()::timestamptz(3) ELSE d.updated_at END
            WHERE d.project_id = $1 AND $2 = ANY (d.path)`,
          [projectId, id, parentPath, group.path.length, change.parentId],
        );
      }
      const { rows } = await client.query<RawGroup>(
        `WITH g AS (
           UPDATE wallet_groups SET name = coalesce($3, name), updated_at = clock_timestamp()::timestamptz(3)
            WHERE project_id = $1 AND id = $2 RETURNING *)
         SELECT ${GROUP_COLUMNS} FROM g`,
        [projectId, id, change.name ?? null],
      );
      return toGroup(rows[0]);
    });
  }

  /** Deletes a group that has no wallets and no subgroups ('not_empty' else), with its sums. */
  async delete(projectId: number, id: string): Promise<true | TreeRefusal> {
    return this.db.transaction(async (client) => {
      await lockTree(client, projectId);
      const group = await this.tree(client, projectId, id);
      if (!group) return 'group';
      const { rows } = await client.query(`SELECT 1 FROM wallet_groups c WHERE c.project_id = $1 AND c.parent_id = $2 LIMIT 1`, [projectId, id]);
      if (rows.length > 0 || group.wallets !== '0') return 'not_empty';
      await client.query(`DELETE FROM wallet_group_balances WHERE project_id = $1 AND group_id = $2`, [projectId, id]);
      await client.query(`DELETE FROM wallet_groups WHERE project_id = $1 AND id = $2`, [projectId, id]);
      return true;
    });
  }

  /**
   * Puts the wallet (an id, else an address, of the project) in the group, out of the one it was
   * in: its balances leave the old ancestors' sums and join the new ones'. The wallet's row lock
   * first (a posting holds it for its whole batch, so the balances read here are the ones the
   * sums hold), then the tree lock.
   */
  async addWallet(projectId: number, groupId: string, walletRef: string, walletId: string | null): Promise<true | TreeRefusal> {
    return this.db.transaction(async (client) => {
      const wallet = await this.lockWallet(client, projectId, walletRef, walletId);
      if (!wallet) return 'wallet';
      await lockTree(client, projectId);
      const group = await this.tree(client, projectId, groupId);
      if (!group) return 'group';
      if (wallet.group_id === groupId) return true;
      const from = wallet.group_id === null ? [] : (await this.tree(client, projectId, wallet.group_id))!.path;
      await client.query(SHIFT(WALLET_SOURCE), [projectId, from, group.path, wallet.id, 1]);
      await client.query(`UPDATE wallets SET group_id = $3 WHERE project_id = $1 AND id = $2`, [projectId, wallet.id, groupId]);
      return true;
    });
  }

  /** Takes the wallet out of the group ('not_member' when it is not in it), its balances out of the sums. */
  async removeWallet(projectId: number, groupId: string, walletRef: string, walletId: string | null): Promise<true | TreeRefusal> {
    return this.db.transaction(async (client) => {
      const wallet = await this.lockWallet(client, projectId, walletRef, walletId);
      await lockTree(client, projectId);
      const group = await this.tree(client, projectId, groupId);
      if (!group) return 'group';
      if (!wallet) return 'wallet';
      if (wallet.group_id !== groupId) return 'not_member';
      await client.query(SHIFT(WALLET_SOURCE), [projectId, group.path, [], wallet.id, 1]);
      await client.query(`UPDATE wallets SET group_id = NULL WHERE project_id = $1 AND id = $2`, [projectId, wallet.id]);
      return true;
    });
  }

  /** The owner's groups by id, any project of theirs. */
  async byIds(ownerId: string, ids: readonly string[]): Promise<WalletGroupView[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<RawGroup>(
      `SELECT ${GROUP_COLUMNS} FROM wallet_groups g JOIN projects p ON p.id = g.project_id WHERE g.id = ANY ($1::uuid[]) AND ${ownedBy('p', '$2')}`,
      [ids, ownerId],
    );
    return rows.map(toGroup);
  }

  /** A page of the project's roots (or of `parentId`'s children), oldest first, with the total. */
  async list(projectId: number, parentId: string | null, limit: number, offset: number): Promise<{ rows: WalletGroupView[]; total: number }> {
    const where = `g.project_id = $1 AND (($2::uuid IS NULL AND g.parent_id IS NULL) OR g.parent_id = $2::uuid)`;
    const [rows, [count]] = await Promise.all([
      this.db.query<RawGroup>(`SELECT ${GROUP_COLUMNS} FROM wallet_groups g WHERE ${where} ORDER BY g.seq LIMIT $3 OFFSET $4`, [projectId, parentId, limit, offset]),
      this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM wallet_groups g WHERE ${where}`, [projectId, parentId]),
    ]);
    return { rows: rows.map(toGroup), total: Number(count.n) };
  }

  /** The direct subgroups of each group, oldest first per parent. */
  async subgroups(groups: readonly { projectId: number; id: string }[]): Promise<WalletGroupView[]> {
    if (groups.length === 0) return [];
    const rows = await this.db.query<RawGroup>(
      `SELECT ${GROUP_COLUMNS}
         FROM unnest($1::int[], $2::uuid[]) AS x (project_id, id)
         JOIN wallet_groups g ON g.project_id = x.project_id AND g.parent_id = x.id
        ORDER BY g.parent_id, g.seq`,
      [groups.map((g) => g.projectId), groups.map((g) => g.id)],
    );
    return rows.map(toGroup);
  }

  /** A keyset page (GraphQL): `limit` of the project's roots (or `parentId`'s children) after the group `afterSeq`, oldest first, with the total. */
  async page(projectId: number, parentId: string | null, limit: number, afterSeq: string | null): Promise<{ rows: WalletGroupView[]; total: number }> {
    const where = `g.project_id = $1 AND (($2::uuid IS NULL AND g.parent_id IS NULL) OR g.parent_id = $2::uuid)`;
    const [rows, [count]] = await Promise.all([
      this.db.query<RawGroup>(`SELECT ${GROUP_COLUMNS} FROM wallet_groups g WHERE ${where} AND ($3::bigint IS NULL OR g.seq > $3::bigint) ORDER BY g.seq LIMIT $4`, [
        projectId,
        parentId,
        afterSeq,
        limit,
      ]),
      this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM wallet_groups g WHERE ${where}`, [projectId, parentId]),
    ]);
    return { rows: rows.map(toGroup), total: Number(count.n) };
  }

  /** Each group's current roll-up: its stored sums, one row per currency a wallet of the subtree holds. */
  async balances(groups: readonly { projectId: number; id: string }[]): Promise<GroupBalanceView[]> {
    if (groups.length === 0) return [];
    const rows = await this.db.query<RawGroupBalance>(groupBalancesSql('unnest($1::int[], $2::uuid[]) AS x (project_id, id)', 'x'), [
      groups.map((g) => g.projectId),
      groups.map((g) => g.id),
    ]);
    return rows.map(toGroupBalance);
  }

  /** A group's roll-up as of a time: the posted balances then of the wallets in its subtree now. */
  async balancesAsOf(group: { projectId: number; id: string }, asOf: Date): Promise<GroupBalanceView[]> {
    const rows = await this.db.query<RawGroupBalance>(groupBalancesAsOfSql, [group.projectId, group.id, asOf]);
    return rows.map(toGroupBalance);
  }

  /** A page of the group's own wallets (not its subgroups'), oldest first, after the wallet `afterSeq`; with the total. */
  async members(group: { projectId: number; id: string }, limit: number, afterSeq: string | null): Promise<{ ids: { id: string; seq: string }[]; total: number }> {
    const [ids, [count]] = await Promise.all([
      this.db.query<{ id: string; seq: string }>(
        `SELECT w.id, w.seq::text AS seq FROM wallets w WHERE w.project_id = $1 AND w.group_id = $2 AND ($3::bigint IS NULL OR w.seq > $3::bigint) ORDER BY w.seq LIMIT $4`,
        [group.projectId, group.id, afterSeq, limit],
      ),
      this.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM wallets w WHERE w.project_id = $1 AND w.group_id = $2`, [group.projectId, group.id]),
    ]);
    return { ids, total: Number(count.n) };
  }

  private async tree(client: pg.PoolClient, projectId: number, id: string): Promise<TreeRow | null> {
    const { rows } = await client.query<TreeRow>(`SELECT path::text[] AS path, wallets::text AS wallets FROM wallet_groups WHERE project_id = $1 AND id = $2`, [projectId, id]);
    return rows[0] ?? null;
  }

  private async lockWallet(client: pg.PoolClient, projectId: number, ref: string, id: string | null): Promise<{ id: string; group_id: string | null } | null> {
    const { rows } = await client.query<{ id: string; group_id: string | null }>(
      `SELECT w.id, w.group_id FROM wallets w WHERE w.project_id = $1 AND (w.id = $2::uuid OR w.address = $3)
        ORDER BY w.id = $2::uuid DESC NULLS LAST LIMIT 1 FOR NO KEY UPDATE`,
      [projectId, id, ref],
    );
    return rows[0] ?? null;
  }
}

const SAMPLE_ROOT = '00000000-0000-4000-8000-000000000001';
const SAMPLE_WALLET = '00000000-0000-4000-8000-000000000002';

/**
 * The owner's project with two root groups (SAMPLE.id and SAMPLE_ROOT) and the wallet `alice`
 * (optionally in SAMPLE.id) for the duration of `run`, so that a sample takes the method's main
 * path (the empty database would stop it at a missing group); removed again after.
 */
async function withSampleTree(unrecorded: Database, member: boolean, run: () => Promise<unknown>): Promise<void> {
  await unrecorded.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ($1, 'free', 'free') ON CONFLICT (id) DO NOTHING`, [SAMPLE.owner]);
  await unrecorded.query(`INSERT INTO projects (id, owner_id, name) VALUES ($1, $2, 'sample')`, [SAMPLE.projectId, SAMPLE.owner]);
  await unrecorded.query(
    `INSERT INTO wallet_groups (project_id, id, name, path, created_at, updated_at) VALUES ($1, $2, 'a', ARRAY[$2::uuid], now(), now()), ($1, $3, 'b', ARRAY[$3::uuid], now(), now())`,
    [SAMPLE.projectId, SAMPLE.id, SAMPLE_ROOT],
  );
  await unrecorded.query(`INSERT INTO wallets (id, project_id, owner_id, address, type, group_id) VALUES ($1, $2, $3, 'alice', 'customer', $4)`, [
    SAMPLE_WALLET,
    SAMPLE.projectId,
    SAMPLE.owner,
    member ? SAMPLE.id : null,
  ]);
  try {
    await run();
  } finally {
    await unrecorded.query(`DELETE FROM wallets WHERE project_id = $1`, [SAMPLE.projectId]);
    await unrecorded.query(`DELETE FROM wallet_group_balances WHERE project_id = $1`, [SAMPLE.projectId]);
    await unrecorded.query(`DELETE FROM wallet_groups WHERE project_id = $1 AND parent_id IS NOT NULL`, [SAMPLE.projectId]);
    await unrecorded.query(`DELETE FROM wallet_groups WHERE project_id = $1`, [SAMPLE.projectId]);
    await unrecorded.query(`DELETE FROM projects WHERE id = $1`, [SAMPLE.projectId]);
  }
}

/** Sample calls: src/queries/wallet-group.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new WalletGroupRepository(db),
  calls: {
    projectOf: (r) => r.projectOf(SAMPLE.owner, SAMPLE.projectId),
    create: (r, { unrecorded }) => withSampleTree(unrecorded, false, () => r.create(SAMPLE.projectId, { name: 'Stores', parentId: SAMPLE.id, metadata: null }, 10_000)),
    update: (r, { unrecorded }) => withSampleTree(unrecorded, false, () => r.update(SAMPLE.projectId, SAMPLE.id, { name: 'Shops', parentId: SAMPLE_ROOT })),
    delete: (r, { unrecorded }) => withSampleTree(unrecorded, false, () => r.delete(SAMPLE.projectId, SAMPLE_ROOT)),
    addWallet: (r, { unrecorded }) => withSampleTree(unrecorded, false, () => r.addWallet(SAMPLE.projectId, SAMPLE.id, 'alice', SAMPLE_WALLET)),
    removeWallet: (r, { unrecorded }) => withSampleTree(unrecorded, true, () => r.removeWallet(SAMPLE.projectId, SAMPLE.id, 'alice', SAMPLE_WALLET)),
    byIds: (r) => r.byIds(SAMPLE.owner, [SAMPLE.id]),
    list: (r) => r.list(SAMPLE.projectId, null, 20, 0),
    subgroups: (r) => r.subgroups([{ projectId: SAMPLE.projectId, id: SAMPLE.id }]),
    page: (r) => r.page(SAMPLE.projectId, null, 21, null),
    balances: (r) => r.balances([{ projectId: SAMPLE.projectId, id: SAMPLE.id }]),
    balancesAsOf: (r) => r.balancesAsOf({ projectId: SAMPLE.projectId, id: SAMPLE.id }, SAMPLE.at),
    members: (r) => r.members({ projectId: SAMPLE.projectId, id: SAMPLE.id }, 20, null),
  },
});
