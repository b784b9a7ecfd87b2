import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../support/database.js';

/**
 * ledger_post writes the transaction rows of its batch's plain transfers, and their
 * `transaction.posted` events, in one INSERT each (ledger_flush) instead of two INSERTs per
 * transfer, and writes what it holds before anything in the batch could read it or precede it in
 * the outbox: the outcomes, the rows and the outbox order are those of one movement after another.
 */
let client: pg.Client;
const ids = { project: 0, plain: randomUUID(), monitored: randomUUID(), alice: randomUUID(), bob: randomUUID(), carol: randomUUID(), hold: randomUUID() };

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  await client.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const { rows } = await client.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'flushed') RETURNING id`);
  ids.project = rows[0].id;
  await client.query(
    `INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions, monitors) VALUES ($1, $3, 'o', 'P', 'PTS', 0, 0), ($2, $3, 'o', 'M', 'MON', 0, 1)`,
    [ids.plain, ids.monitored, ids.project],
  );
  await client.query(
    `INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $4, 'o', 'alice', 'customer'), ($2, $4, 'o', 'bob', 'customer'), ($3, $4, 'o', 'carol', 'customer')`,
    [ids.alice, ids.bob, ids.carol, ids.project],
  );
  await client.query(
    `INSERT INTO balances (wallet_id, asset_id, project_id, amount) VALUES ($1, $3, $5, 1000), ($2, $3, $5, 1000), ($1, $4, $5, 1000), ($2, $4, $5, 1000)`,
    [ids.alice, ids.bob, ids.plain, ids.monitored, ids.project],
  );
  // carol's 10 are all held by a hold that expired an hour ago: her debit releases it first
  await client.query(`INSERT INTO balances (wallet_id, asset_id, project_id, amount, held) VALUES ($1, $2, $3, 10, 10)`, [ids.carol, ids.plain, ids.project]);
  await client.query(
    `INSERT INTO holds (id, project_id, asset_id, from_wallet_id, to_wallet_id, amount, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 10, now() - interval '1 hour', now() - interval '2 hours', now() - interval '2 hours')`,
    [ids.hold, ids.project, ids.plain, ids.carol, ids.bob],
  );
  await client.query(
    `INSERT INTO balance_monitors (project_id, asset_id, wallet_id, field, operator, value, created_at) VALUES ($1, $2, NULL, 'balance', 'lt', 995, now())`,
    [ids.project, ids.monitored],
  );
});
afterAll(() => client.end());

interface Element {
  kind?: string;
  asset?: string;
  from: string;
  to: string;
  amount: number;
  request?: string;
  group?: number;
}
interface Outcome {
  idx: number;
  code: string;
  tx_id: string | null;
  tx_seq: string | null;
}

async function post(elements: Element[]): Promise<Outcome[]> {
  const column = <T>(pick: (e: Element) => T) => elements.map(pick);
  const { rows } = await client.query<Outcome>(
    `SELECT idx, code, tx_id, tx_seq::text FROM ledger_post($1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[],
                                                            $9::uuid[], $10::text[], $11::json[], $12::int[])`,
    [
      column((e) => e.kind ?? 'transfer'),
      column(() => ids.project),
      column((e) => e.asset ?? ids.plain),
      column((e) => e.from),
      column((e) => e.to),
      column((e) => e.amount),
      column((e) => e.request ?? null),
      column((e) => e.group ?? null),
      column(() => null),
      column(() => null),
      column(() => null),
      column((e) => (e.kind === 'hold' ? 3600 : null)),
    ],
  );
  return rows;
}

/** The outbox after `pos`: each event's type and subject, in outbox order. */
async function outboxAfter(pos: string): Promise<{ type: string; subject_id: string }[]> {
  const { rows } = await client.query<{ type: string; subject_id: string }>(`SELECT type, subject_id FROM events WHERE pos > $1 ORDER BY pos`, [pos]);
  return rows;
}
const topPos = async () => (await client.query<{ top: string }>(`SELECT coalesce(max(pos), 0)::text AS top FROM events`)).rows[0].top;

describe('ledger_post writes a batch’s transaction rows and events together', () => {
  it('27 plain transfers: one INSERT INTO transactions and one INSERT INTO events for the batch, rows and events in movement order', async () => {
    await client.query(`LOAD 'auto_explain'`);
    for (const setting of ['log_min_duration = 0', 'log_nested_statements = on', 'log_analyze = off', 'log_format = json', 'log_level = notice']) {
      await client.query(`SET auto_explain.${setting}`);
    }
    const inserts: string[] = [];
    const collect = (notice: { message?: string }) => {
      const { Plan: plan } = JSON.parse(notice.message!.slice(notice.message!.indexOf('{'))) as { Plan: Record<string, unknown> };
      if (plan['Node Type'] === 'ModifyTable' && plan.Operation === 'Insert') inserts.push(String(plan['Relation Name']));
    };
    const before = await topPos();
    client.on('notice', collect);
    let outcomes: Outcome[];
    try {
      outcomes = await post(Array.from({ length: 27 }, (_, i) => (i % 2 ? { from: ids.alice, to: ids.bob, amount: 1 } : { from: ids.bob, to: ids.alice, amount: 1 })));
    } finally {
      client.off('notice', collect);
      await client.query(`SET auto_explain.log_min_duration = -1`);
    }
    expect(outcomes.map((o) => o.code)).toEqual(Array(27).fill('ok'));
    expect(inserts.filter((table) => table === 'transactions')).toHaveLength(1);
    expect(inserts.filter((table) => table === 'events')).toHaveLength(1);
    const seqs = outcomes.map((o) => BigInt(o.tx_seq!));
    expect(seqs.every((seq, i) => i === 0 || seq > seqs[i - 1])).toBe(true);
    const { rows } = await client.query<{ id: string; seq: string }>(
      `SELECT t.id, t.seq::text AS seq FROM transactions t WHERE t.id = ANY ($1) ORDER BY t.seq`,
      [outcomes.map((o) => o.tx_id)],
    );
    expect(rows.map((r) => r.id)).toEqual(outcomes.map((o) => o.tx_id));
    expect(rows.map((r) => r.seq)).toEqual(outcomes.map((o) => o.tx_seq));
    expect(await outboxAfter(before)).toEqual(outcomes.map((o) => ({ type: 'transaction.posted', subject_id: o.tx_id })));
  });

  it('writes what it holds before an element that reads or precedes it: an expired hold released, a monitored asset, a hold, a repeated request key, a group', async () => {
    const before = await topPos();
    const outcomes = await post([
      { from: ids.alice, to: ids.bob, amount: 1 }, // 1: deferred
      { from: ids.carol, to: ids.alice, amount: 5 }, // 2: its debit releases carol's expired hold (hold.expired) first
      { from: ids.alice, to: ids.bob, amount: 2 }, // 3: deferred
      { asset: ids.monitored, from: ids.alice, to: ids.bob, amount: 10 }, // 4: alice's MON crosses 995 (balance.threshold_crossed)
      { from: ids.bob, to: ids.alice, amount: 3 }, // 5: deferred
      { kind: 'hold', from: ids.alice, to: ids.bob, amount: 4 }, // 6: hold.created
      { from: ids.alice, to: ids.bob, amount: 1, request: 'k' }, // 7: deferred
      { from: ids.alice, to: ids.bob, amount: 1, request: 'k' }, // 8: the replay of 7
      { from: ids.alice, to: ids.carol, amount: 1, request: 'k' }, // 9: another movement under 7's key
      { from: ids.alice, to: ids.bob, amount: 1, group: 1 }, // 10, 11: a group
      { from: ids.bob, to: ids.alice, amount: 1, group: 1 },
      { from: ids.bob, to: ids.carol, amount: 1 }, // 12: deferred, written before ledger_post returns
    ]);
    expect(outcomes.map((o) => o.code)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'request_key_mismatch', 'ok', 'ok', 'ok']);
    expect(outcomes[7]).toEqual({ ...outcomes[6], idx: 8 });
    const tx = (i: number) => ({ type: 'transaction.posted', subject_id: outcomes[i - 1].tx_id });
    const { rows: holds } = await client.query<{ id: string }>(`SELECT id FROM holds WHERE from_wallet_id = $1 AND status = 'pending'`, [ids.alice]);
    const { rows: crossings } = await client.query<{ id: string }>(`SELECT subject_id AS id FROM events WHERE pos > $1 AND type = 'balance.threshold_crossed'`, [before]);
    expect(crossings).toHaveLength(1);
    expect(await outboxAfter(before)).toEqual([
      tx(1),
      { type: 'hold.expired', subject_id: ids.hold },
      tx(2),
      tx(3),
      tx(4),
      { type: 'balance.threshold_crossed', subject_id: crossings[0].id },
      tx(5),
      { type: 'hold.created', subject_id: holds[0].id },
      tx(7),
      tx(10),
      tx(11),
      tx(12),
    ]);
    const seqs = [1, 2, 3, 4, 5, 7, 10, 11, 12].map((i) => BigInt(outcomes[i - 1].tx_seq!));
    expect(seqs.every((seq, i) => i === 0 || seq > seqs[i - 1])).toBe(true);
    const { rows: balances } = await client.query<{ wallet_id: string; amount: string; held: string; tx_count: string }>(
      `SELECT wallet_id, amount::text, held::text, tx_count::text FROM balances WHERE asset_id = $1 AND wallet_id = $2`,
      [ids.plain, ids.carol],
    );
    expect(balances[0]).toMatchObject({ amount: '6', held: '0' }); // 10 − 5 + 1 from bob (12), the expired hold released
  });
});
