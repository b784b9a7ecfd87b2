import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../support/database.js';

/**
 * The rule of `used` is written once (limits_window_used.sql), for the check on the hot path
 * (limits_check) and the reads (limits_used). The check stays one statement per side, its cost the
 * index descents themselves, only because PostgreSQL inlines the rule: seen here through
 * auto_explain, which prints the plan of every statement the routine runs as a notice to this
 * session. A rule it could not inline would show as a Function Scan (a call per limit).
 */
let client: pg.Client;
const ids = { project: 0, asset: randomUUID(), alice: randomUUID(), bob: randomUUID(), hold: randomUUID() };

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  await client.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const { rows } = await client.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'limited') RETURNING id`);
  ids.project = rows[0].id;
  await client.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions, limit_count) VALUES ($1, $2, 'o', 'P', 'PTS', 0, 3)`, [ids.asset, ids.project]);
  await client.query(`INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $3, 'o', 'alice', 'customer'), ($2, $3, 'o', 'bob', 'customer')`, [ids.alice, ids.bob, ids.project]);
  // alice holds 10 in a pending hold, so the debit side reads the holds outside the window too
  await client.query(`INSERT INTO balances (wallet_id, asset_id, project_id, amount, held) VALUES ($1, $3, $4, 1000, 10), ($2, $3, $4, 1000, 0)`, [ids.alice, ids.bob, ids.asset, ids.project]);
  await client.query(
    `INSERT INTO holds (id, project_id, asset_id, from_wallet_id, to_wallet_id, amount, status, created_at, updated_at) VALUES ($5, $1, $2, $3, $4, 10, 'pending', now(), now())`,
    [ids.project, ids.asset, ids.alice, ids.bob, ids.hold],
  );
  await client.query(
    `INSERT INTO limits (project_id, asset_id, direction, amount, window_seconds) VALUES ($1, $2, 'debit', 1000000, 3600), ($1, $2, 'debit', 1000000, 86400), ($1, $2, 'credit', 1000000, 86400)`,
    [ids.project, ids.asset],
  );
  await client.query(`LOAD 'auto_explain'`);
  for (const setting of ['log_min_duration = 0', 'log_nested_statements = on', 'log_analyze = on', 'log_timing = off', 'log_format = json', 'log_level = notice']) {
    await client.query(`SET auto_explain.${setting}`);
  }
});
afterAll(() => client.end());

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The statements `sql` runs, nested ones included (not `sql` itself): each one's text and plan. */
async function statementsOf(sql: string, params: unknown[]): Promise<{ text: string; plan: PlanNode }[]> {
  const explained: { text: string; plan: PlanNode }[] = [];
  const collect = (notice: { message?: string }) => {
    const { 'Query Text': text, Plan: plan } = JSON.parse(notice.message!.slice(notice.message!.indexOf('{'))) as { 'Query Text': string; Plan: PlanNode };
    explained.push({ text, plan });
  };
  client.on('notice', collect);
  try {
    await client.query(sql, params);
  } finally {
    client.off('notice', collect);
  }
  return explained.filter((s) => s.text !== sql);
}

describe('the rule of used is inlined into the limit check', () => {
  it('one statement per side, holding the index descents, no call of the rule', async () => {
    for (let run = 0; run < 14; run += 1) {
      // the later runs use PL/pgSQL's generic plans (from the sixth on); odd runs are a capture of alice's hold (its creation read within the statement)
      const hold = run % 2 ? ids.hold : null;
      const statements = await statementsOf(`SELECT limits_check($1, $2, $3, $4, 1, $5, true, 0, now()) AS refusal`, [ids.project, ids.asset, ids.alice, ids.bob, hold]);
      expect(statements).toHaveLength(2); // the sender's debit limits, then the receiver's credit limits
      const indexes = statements.map(({ plan }) => nodesOf(plan).map((node) => node['Index Name']).filter(Boolean));
      expect(indexes[0]).toEqual(expect.arrayContaining(['transactions_from_as_of_idx']));
      expect(indexes[0]).not.toContain('transactions_to_as_of_idx'); // a constant direction leaves only its side's descent
      expect(indexes[0].some((name) => /^holds_pending/.test(String(name)))).toBe(true); // something is held: the holds outside the window
      expect(indexes[1]).toEqual(expect.arrayContaining(['transactions_to_as_of_idx']));
      expect(indexes[1]).not.toContain('transactions_from_as_of_idx');
      for (const { plan } of statements) {
        expect(nodesOf(plan).filter((node) => node['Node Type'] === 'Function Scan')).toEqual([]);
        expect(JSON.stringify(plan)).not.toMatch(/limits_window_used|limits_applying\(/);
      }
    }
  });

  it('the reads use the same rule: limits_used counts the hold inside the window', async () => {
    const { rows } = await client.query<{ debit: string; credit: string }>(
      `SELECT limits_used($1, $2, $3, 'debit', 3600, now()) AS debit, limits_used($1, $4, $3, 'credit', 3600, now()) AS credit`,
      [ids.project, ids.alice, ids.asset, ids.bob],
    );
    expect(rows[0]).toEqual({ debit: '10', credit: '0' });
  });
});
