import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../support/database.js';

/**
 * Credit lines and conditions (CONTRACT §28) "add no statement to a posting that uses neither":
 * counted by pg_stat_statements (preloaded with track = all, so the statements the routines run
 * inside ledger_post count, not only the call itself). The line is a column the debit's UPDATE
 * already reads, and conditions are a parameter ledger_post looks at only when given; the counts
 * below are the statements each kind of posting ran before either existed (measured on the
 * routines of 2026-12-08's main), and a posting on a wallet WITH a line runs the same number.
 */
let client: pg.Client;
const ids = { project: 0, asset: randomUUID(), alice: randomUUID(), bob: randomUUID(), carol: randomUUID() };

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await client.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const { rows } = await client.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'counted') RETURNING id`);
  ids.project = rows[0].id;
  await client.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES ($1, $2, 'o', 'P', 'PTS', 0)`, [ids.asset, ids.project]);
  await client.query(
    `INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $4, 'o', 'alice', 'customer'), ($2, $4, 'o', 'bob', 'customer'), ($3, $4, 'o', 'carol', 'customer')`,
    [ids.alice, ids.bob, ids.carol, ids.project],
  );
  await client.query(`INSERT INTO balances (wallet_id, asset_id, project_id, amount) VALUES ($1, $4, $5, 1000000), ($2, $4, $5, 1000000), ($3, $4, $5, 0)`, [
    ids.alice, ids.bob, ids.carol, ids.asset, ids.project,
  ]);
});
afterAll(() => client.end());
interface Element {
  kind: 'transfer' | 'hold' | 'capture';
  from: string;
  to: string;
  amount: number | null;
  group?: number;
  target?: string;
}

const POST = `SELECT idx, code, hold_id FROM ledger_post($1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[])`;

async function post(elements: Element[]): Promise<{ code: string; hold_id: string | null }[]> {
  const column = <T>(pick: (e: Element) => T) => elements.map(pick);
  const { rows } = await client.query<{ code: string; hold_id: string | null }>(POST, [
    column((e) => e.kind), column(() => ids.project), column(() => ids.asset), column((e) => e.from), column((e) => e.to), column((e) => e.amount),
    column(() => null), column((e) => e.group ?? null), column((e) => e.target ?? null), column(() => null), column(() => null), column((e) => (e.kind === 'hold' ? 3600 : null)),
  ]);
  return rows;
}

/** The statements `elements` made the database run inside ledger_post (nested, every execution counted). */
async function nestedStatements(elements: Element[]): Promise<number> {
  await client.query(`SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)`);
  const outcomes = await post(elements);
  expect(outcomes.map((o) => o.code)).toEqual(elements.map(() => 'ok'));
  const { rows } = await client.query<{ n: string }>(
    `SELECT coalesce(sum(calls), 0)::text AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND NOT toplevel`,
  );
  return Number(rows[0].n);
}

const holdOf = async (from: string, to: string): Promise<string> => (await post([{ kind: 'hold', from, to, amount: 5 }]))[0].hold_id!;

/** Per kind: a transfer alone, a batch of two legs, a hold, a capture; run twice so plans are warm. */
async function counts(from: string): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (let run = 0; run < 2; run++) {
    result.transfer = await nestedStatements([{ kind: 'transfer', from, to: ids.bob, amount: 1 }]);
    result.batch = await nestedStatements([{ kind: 'transfer', from, to: ids.bob, amount: 1, group: 1 }, { kind: 'transfer', from: ids.bob, to: from, amount: 1, group: 1 }]);
    result.hold = await nestedStatements([{ kind: 'hold', from, to: ids.bob, amount: 1 }]);
    const hold = await holdOf(from, ids.bob);
    result.capture = await nestedStatements([{ kind: 'capture', from, to: ids.bob, amount: null, target: hold }]);
  }
  return result;
}

describe('a posting that uses neither credit lines nor conditions', () => {
  it('runs exactly the statements it ran before them', async () => {
    const measured = await counts(ids.alice);
    console.log(`nested statements per posting: ${JSON.stringify(measured)}`);
    expect(measured).toEqual(BEFORE);
  });

  it('and a posting from a wallet with a line in use runs the same number', async () => {
    await client.query(`UPDATE balances SET credit_limit = 100, credit_bound = 100 WHERE wallet_id = $1`, [ids.carol]);
    await post([{ kind: 'transfer', from: ids.carol, to: ids.bob, amount: 50 }]); // carol at −50
    expect(await counts(ids.carol)).toEqual(BEFORE);
    const { rows } = await client.query<{ amount: string }>(`SELECT amount::text FROM balances WHERE wallet_id = $1`, [ids.carol]);
    expect(rows[0].amount).toBe('-62'); // −50, then twice a transfer of 1 and a capture of 5 (each batch nets 0)
  });
});

/**
 * Measured with main's routines (ledger_post, ledger_move, holds_create, limits_check,
 * monitors_changed as of b5cf42c) installed in this test's database in place of these: the same
 * counts. A batch counts its subtransaction's statements; a hold's and a capture's include the
 * hold's own rows and its `hold.*` events.
 */
const BEFORE = { transfer: 7, batch: 13, hold: 16, capture: 13 };
