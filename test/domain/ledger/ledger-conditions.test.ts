import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../support/database.js';

/**
 * ledger_post's conditions (ledger_conditions.sql), called as PostingRepository calls it: a lone
 * conditioned request runs as a group of one, yet answers as a lone request does (its hold id, a
 * replay of its request key as it was, the release an expired hold's refusal keeps).
 */
let client: pg.Client;
const ids = { project: 0, asset: randomUUID(), alice: randomUUID(), bob: randomUUID() };

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  await client.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const { rows } = await client.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'conditioned') RETURNING id`);
  ids.project = rows[0].id;
  await client.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES ($1, $2, 'o', 'P', 'PTS', 0)`, [ids.asset, ids.project]);
  await client.query(`INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $3, 'o', 'alice', 'customer'), ($2, $3, 'o', 'bob', 'customer')`, [ids.alice, ids.bob, ids.project]);
  await client.query(`INSERT INTO balances (wallet_id, asset_id, project_id, amount) VALUES ($1, $3, $4, 100), ($2, $3, $4, 0)`, [ids.alice, ids.bob, ids.asset, ids.project]);
});
afterAll(() => client.end());

interface Element {
  kind: 'transfer' | 'hold' | 'capture';
  amount: number | null;
  request?: string;
  target?: string;
  expiresIn?: number;
  conditions?: unknown[];
}
interface Outcome {
  code: string;
  tx_id: string | null;
  hold_id: string | null;
  detail: Record<string, unknown> | null;
}

async function post(e: Element): Promise<Outcome> {
  const params: unknown[] = [[e.kind], [ids.project], [ids.asset], [ids.alice], [ids.bob], [e.amount], [e.request ?? null], [null], [e.target ?? null], [null], [null], [e.expiresIn ?? null]];
  const conditioned = e.conditions !== undefined;
  if (conditioned) params.push([JSON.stringify(e.conditions)]);
  const { rows } = await client.query<Outcome>(
    `SELECT code, tx_id, hold_id, detail FROM ledger_post($1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[]${conditioned ? ', p_conditions => $13::jsonb[]' : ''})`,
    params,
  );
  return rows[0];
}
const bobAtMost = (value: number) => [{ wallet: ids.bob, asset: ids.asset, field: 'balance', op: 'lte', value: String(value), fractions: 0 }];

describe('a lone conditioned request', () => {
  it('a replay of its request key answers the posting as it was, not judged again', async () => {
    const first = await post({ kind: 'transfer', amount: 10, request: 'k-1', conditions: bobAtMost(10) });
    expect(first.code).toBe('ok');
    // the same request again: bob is at 10, so "ends at most 10" would now fail; it is a replay
    const replay = await post({ kind: 'transfer', amount: 10, request: 'k-1', conditions: bobAtMost(10) });
    expect(replay).toMatchObject({ code: 'ok', tx_id: first.tx_id });
    const fresh = await post({ kind: 'transfer', amount: 10, request: 'k-2', conditions: bobAtMost(10) });
    expect(fresh).toMatchObject({ code: 'condition_failed', detail: { index: 0, actual: '20', fractions: 0 } });
  });

  it('a capture answers its hold id', async () => {
    const hold = await post({ kind: 'hold', amount: 5 });
    const captured = await post({ kind: 'capture', amount: null, target: hold.hold_id!, conditions: bobAtMost(15) });
    expect(captured).toMatchObject({ code: 'ok', hold_id: hold.hold_id });
  });

  it('a capture of an expired hold keeps the release its refusal writes', async () => {
    const hold = await post({ kind: 'hold', amount: 5, expiresIn: 3600 });
    await client.query(`UPDATE holds SET expires_at = now() - interval '1 second' WHERE id = $1`, [hold.hold_id]);
    const refused = await post({ kind: 'capture', amount: null, target: hold.hold_id!, conditions: bobAtMost(1000) });
    expect(refused.code).toBe('hold_expired');
    const { rows } = await client.query<{ status: string }>(`SELECT status FROM holds WHERE id = $1`, [hold.hold_id]);
    expect(rows[0].status).toBe('expired');
    const [{ held }] = (await client.query<{ held: string }>(`SELECT held::text FROM balances WHERE wallet_id = $1`, [ids.alice])).rows;
    expect(held).toBe('0');
  });
});
