import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestDatabase } from '../../support/database.js';

/**
 * The crossing rule is written once (monitors_crossed.sql) and costs a posting nothing more than
 * its index probes only because PostgreSQL inlines it: ledger_move judges both sides of a movement
 * in ONE statement, with the values it already holds (no balance row read again), and a posting
 * that crosses nothing runs nothing else for its monitors (CONTRACT §20: ≥ 0.9× the transfers/s
 * without monitors). Seen here through auto_explain, which prints the plan of every statement the
 * routines run (nested ones too) as a notice to this session.
 */
let client: pg.Client;
const ids = { project: 0, asset: randomUUID(), alice: randomUUID(), bob: randomUUID(), other: randomUUID() };
const OPERATORS = ['lt', 'lte', 'gt', 'gte'];

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
  await client.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const { rows } = await client.query<{ id: number }>(`INSERT INTO projects (owner_id, name) VALUES ('o', 'monitored') RETURNING id`);
  ids.project = rows[0].id;
  await client.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES ($1, $2, 'o', 'P', 'PTS', 0)`, [ids.asset, ids.project]);
  await client.query(
    `INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $4, 'o', 'alice', 'customer'), ($2, $4, 'o', 'bob', 'customer'), ($3, $4, 'o', 'other', 'customer')`,
    [ids.alice, ids.bob, ids.other, ids.project],
  );
  await client.query(`INSERT INTO balances (wallet_id, asset_id, project_id, amount) VALUES ($1, $3, $4, 1000), ($2, $3, $4, 1000)`, [ids.alice, ids.bob, ids.asset, ids.project]);
  // 100 project-wide monitors (both fields, every operator) away from 1,000, and 100 on another wallet
  for (const wallet of [null, ids.other]) {
    for (let i = 0; i < 100; i += 1) {
      await client.query(
        `INSERT INTO balance_monitors (project_id, asset_id, wallet_id, field, operator, value, created_at) VALUES ($1, $2, $3, $4, $5, $6, now())`,
        [ids.project, ids.asset, wallet, i % 2 ? 'available' : 'balance', OPERATORS[Math.floor(i / 2) % 4], 1050 + 100 * i],
      );
    }
  }
  await client.query(`UPDATE assets SET monitors = 200 WHERE id = $1`, [ids.asset]);
  await client.query(`ANALYZE balance_monitors`);
  await client.query(`LOAD 'auto_explain'`);
  for (const setting of ['log_min_duration = 0', 'log_nested_statements = on', 'log_analyze = on', 'log_timing = off', 'log_format = json', 'log_level = notice']) {
    await client.query(`SET auto_explain.${setting}`);
  }
});
afterAll(() => client.end());

/**
 * The statements one transfer of `amount` from alice to bob runs inside ledger_move (rolled back):
 * each one's text and its plan (as JSON text), and the transfer's outcome.
 */
async function plansOf(amount: number): Promise<{ code: string; plans: { text: string; plan: string }[] }> {
  const plans: { text: string; plan: string }[] = [];
  const collect = (notice: { message?: string }) => {
    const explained = JSON.parse(notice.message!.slice(notice.message!.indexOf('{'))) as { 'Query Text': string; Plan: unknown };
    plans.push({ text: explained['Query Text'], plan: JSON.stringify(explained.Plan) });
  };
  client.on('notice', collect);
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ code: string }>(
      `SELECT code FROM ledger_move($1, $2, $3, $4, $5, 'transfer', NULL, NULL, NULL, NULL, NULL, NULL, 0, now())`,
      [ids.project, ids.asset, ids.alice, ids.bob, amount],
    );
    return { code: rows[0].code, plans: plans.filter((p) => !p.text.startsWith('SELECT code FROM ledger_move')) };
  } finally {
    await client.query('ROLLBACK');
    client.off('notice', collect);
  }
}

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe('ledger_move judges a movement’s monitors in one statement', () => {
  it('100 project-wide monitors, none crossed: one statement, the index probes inlined, no balance row read again, nothing written', async () => {
    // the 6th run of the routine's statements uses PL/pgSQL's generic plan: both kinds of plan are seen
    for (let run = 0; run < 7; run += 1) {
      const { code, plans } = await plansOf(1);
      expect(code).toBe('ok');
      const monitored = plans.filter((p) => /balance_monitors|monitors_\w+\(|balance_crossings|threshold_crossed/.test(p.text + p.plan));
      expect(monitored).toHaveLength(1);
      const [{ plan }] = monitored;
      const scans = nodesOf(JSON.parse(plan)).filter((node) => node['Relation Name']);
      expect(new Set(scans.map((node) => node['Relation Name']))).toEqual(new Set(['balance_monitors', 'wallets'])); // no balance row read again
      const probes = scans.filter((node) => node['Relation Name'] === 'balance_monitors');
      expect(probes.map((node) => node['Index Name']).sort()).toEqual(['balance_monitors_project_idx', 'balance_monitors_wallet_idx']);
      expect(probes.map((node) => node['Actual Rows'])).toEqual([0, 0]); // no monitor read: none near the values, another wallet's never
      expect(plan).not.toMatch(/monitors_crossed|Function Scan/); // inlined: no call per side
    }
  });

});
