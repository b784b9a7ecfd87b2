import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../support/database.js';

/**
 * What groups cost the posting path (CONTRACT §29), read from pg_stat_statements (track = all:
 * the statements the routines run are counted too). A batch of postings between wallets in no
 * group runs no statement of the groups at all, even in a project that has groups; a batch into
 * wallets of a group of depth 3 runs the roll-up once for the whole batch, writing one row per
 * group (three), not one per posting.
 */
let client: pg.Client;
const ids = { project: 0, asset: randomUUID(), system: randomUUID(), loose: [randomUUID(), randomUUID()], grouped: [randomUUID(), randomUUID()], groups: [randomUUID(), randomUUID(), randomUUID()] };

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  await client.query(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`);
  await client.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const { rows } = await client.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'grouped') RETURNING id`);
  ids.project = rows[0].id;
  await client.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES ($1, $2, 'o', 'P', 'PTS', 0)`, [ids.asset, ids.project]);
  const [root, mid, leaf] = ids.groups;
  await client.query(
    `INSERT INTO wallet_groups (project_id, id, parent_id, name, path, created_at, updated_at)
     VALUES ($1, $2, NULL, 'root', ARRAY[$2::uuid], now(), now()), ($1, $3, $2, 'mid', ARRAY[$2::uuid, $3::uuid], now(), now()),
            ($1, $4, $3, 'leaf', ARRAY[$2::uuid, $3::uuid, $4::uuid], now(), now())`,
    [ids.project, root, mid, leaf],
  );
  const wallets = [
    [ids.system, 'system', null],
    [ids.loose[0], 'customer', null],
    [ids.loose[1], 'customer', null],
    [ids.grouped[0], 'customer', leaf],
    [ids.grouped[1], 'customer', leaf],
  ];
  for (const [id, type, group] of wallets) {
    await client.query(`INSERT INTO wallets (id, project_id, owner_id, address, type, group_id) VALUES ($1::uuid, $2, 'o', $1::text, $3, $4)`, [id, ids.project, type, group]);
  }
  await client.query(`UPDATE wallet_groups SET wallets = 2 WHERE project_id = $1`, [ids.project]);
  await post([{ from: null, to: ids.system, amount: 1_000_000, kind: 'seed' }]);
});
afterAll(() => client.end());

interface Element {
  kind?: string;
  from: string | null;
  to: string;
  amount: number;
}

async function post(elements: Element[]): Promise<string[]> {
  const column = <T>(pick: (e: Element) => T) => elements.map(pick);
  const { rows } = await client.query<{ code: string }>(
    `SELECT code FROM ledger_post($1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[])`,
    [
      column((e) => e.kind ?? 'transfer'),
      column(() => ids.project),
      column(() => ids.asset),
      column((e) => e.from),
      column((e) => e.to),
      column((e) => e.amount),
      column(() => null),
      column(() => null),
      column(() => null),
      column(() => null),
      column(() => null),
      column(() => null),
    ],
  );
  return rows.map((r) => r.code);
}

const resetStatements = () => client.query(`SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)`);
/** The statements of the groups this database ran since the reset (their tables, the shared tree lock): text, calls, rows. */
async function groupStatements(): Promise<{ query: string; calls: number; rows: number }[]> {
  const { rows } = await client.query<{ query: string; calls: number; rows: number }>(
    `SELECT query, calls::int, rows::int FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query ~* 'wallet_group|pg_advisory_xact_lock_shared'
      ORDER BY query`,
  );
  return rows;
}

describe('postings between wallets in no group', () => {
  it('run no statement of the groups, in a project that has groups', async () => {
    await resetStatements();
    const batch = Array.from({ length: 10 }, (_, i) => ({ from: i % 2 ? ids.loose[0] : ids.system, to: ids.loose[i % 2], amount: 1 }));
    expect(await post(batch)).toEqual(Array(10).fill('ok'));
    expect(await post([{ from: ids.loose[1], to: ids.system, amount: 1 }])).toEqual(['ok']);
    expect(await groupStatements()).toEqual([]);
  });
});

describe('postings into wallets of a group of depth 3', () => {
  it('roll up once per batch: one write per group (3), whatever the number of postings', async () => {
    await resetStatements();
    const batch = Array.from({ length: 10 }, (_, i) => ({ from: ids.system, to: ids.grouped[i % 2], amount: 1 + i }));
    expect(await post(batch)).toEqual(Array(10).fill('ok'));
    const statements = await groupStatements();
    const roll = statements.filter((s) => /INSERT INTO wallet_group_balances/i.test(s.query));
    expect(roll).toEqual([expect.objectContaining({ calls: 1, rows: 3 })]);
    const watch = statements.filter((s) => /pg_advisory_xact_lock_shared/i.test(s.query));
    expect(watch).toEqual([expect.objectContaining({ calls: 1 })]);
    const { rows: sums } = await client.query<{ group_id: string; amount: string; holders: number }>(
      `SELECT group_id, amount::text, holders FROM wallet_group_balances WHERE project_id = $1 ORDER BY group_id`,
      [ids.project],
    );
    expect(sums.map((s) => [s.amount, s.holders])).toEqual([
      ['55', 2],
      ['55', 2],
      ['55', 2],
    ]);
  });

  it('a refused element changes nothing in the sums', async () => {
    const before = (await client.query(`SELECT amount::text FROM wallet_group_balances WHERE project_id = $1`, [ids.project])).rows;
    expect(await post([{ from: ids.grouped[0], to: ids.loose[0], amount: 1_000_000 }])).toEqual(['insufficient_funds']);
    expect((await client.query(`SELECT amount::text FROM wallet_group_balances WHERE project_id = $1`, [ids.project])).rows).toEqual(before);
  });
});
