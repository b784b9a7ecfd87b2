import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { expectStatus, fundedProject, type FundedProject } from '../../test/support/fixtures.js';
import { startTestApp, type TestApp } from '../../test/support/test-app.js';
import { raw } from '../../test/graphql/support/client.js';
import { groupBalancesSql } from '../../src/domain/wallet-groups/wallet-group.sql.js';

/**
 * Wallet groups (CONTRACT §29, issue 42's closing figures). A measurement, not a test:
 *
 *   npx tsc -p tsconfig.json && NODE_ENV=production NODE_OPTIONS=--experimental-vm-modules \
 *     npx jest --config jest.bench.config.js bench/groups/wallet-groups.bench.ts
 *
 * 1. Read latency of a group's current roll-up for 10, 1,000 and 100,000 wallets in its subtree
 *    (REST GET /wallet-groups/{id}, and the planned GraphQL read project → walletGroups → balances
 *    + groups → balances), p50 and p95 of RUNS reads each. The wallets and their balance rows are
 *    written straight into the tables (100,000 through HTTP would take the run's hour); the group's
 *    sums are then made by one move of the group through the API, the path the service keeps them by.
 *    With it, the buffers the roll-up statement reads (EXPLAIN ANALYZE, BUFFERS): a figure the
 *    machine's load does not move.
 * 2. Transfers per second through HTTP between wallets in no group and between wallets in leaf
 *    groups of depth 3 (root → region → store), in alternating rounds in one process, so that both
 *    see the same state of the machine.
 * 3. The posting routine alone: one `ledger_post` of a batch of 20 transfers, in wallets of no group
 *    and in wallets of depth-3 groups, alternating, timed on the database connection; the median
 *    of the per-pair ratios (a shared machine moves both sides of a pair alike). And, for wallets in
 *    no group, this branch's ledger_post against the one before groups (e8be792's text, installed
 *    under another name in the same database), alternating the same way.
 */
const RUNS = 200;
const ROUND_MS = 5_000;
const ROUNDS = 5;
const CLIENTS = 16;

let t: TestApp;
let key: string;
const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};

beforeAll(async () => {
  t = await startTestApp({ poolSize: 20 });
  key = await t.issueKey('groups-bench', 'enterprise');
}, 60_000);
afterAll(async () => {
  await t.close();
  process.stdout.write(`\n${lines.join('\n')}\n`);
});

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function timed(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 20; i++) await run(); // warm: plans cached, pages in memory
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95) };
}

/** A project whose group `Top` holds `wallets` wallets (spread over Top and two subgroups), each with a balance of 1.00. */
async function groupOf(wallets: number): Promise<{ p: FundedProject; top: string }> {
  const p = await fundedProject(t, key, { name: `${wallets} grouped wallets`, customers: 0, systemBalance: 0 });
  const create = async (name: string, parentId?: string) => (await expectStatus(t.request('POST', '/wallet-groups', { key, body: { projectId: p.projectId, name, parentId } }), 201)).group.id as string;
  const staging = await create('Staging');
  const top = await create('Top');
  const left = await create('Left', top);
  const right = await create('Right', top);
  const [owner] = await t.db.query<{ owner_id: string }>(`SELECT owner_id FROM projects WHERE id = $1`, [p.projectId]);
  // the wallets go into Staging's subtree, whose sums are then written by moving Staging under Top
  await t.db.query(`UPDATE wallet_groups SET path = ARRAY[$2::uuid, id], parent_id = $2 WHERE project_id = $1 AND id IN ($3, $4)`, [p.projectId, staging, left, right]);
  await t.db.query(`UPDATE wallet_groups SET path = ARRAY[id], parent_id = NULL WHERE project_id = $1 AND id = $2`, [p.projectId, top]);
  await t.db.query(
    `WITH w AS (
       INSERT INTO wallets (id, project_id, owner_id, address, type, group_id)
       SELECT gen_random_uuid(), $1, $2, 'bench-' || i, 'customer', (ARRAY[$3, $4, $5]::uuid[])[1 + i % 3] FROM generate_series(1, $6) i
       RETURNING id)
     INSERT INTO balances (wallet_id, asset_id, project_id, amount, tx_count) SELECT w.id, $7, $1, 100, 0 FROM w`,
    [p.projectId, owner.owner_id, staging, left, right, wallets, p.assetId],
  );
  await t.db.query(
    `INSERT INTO wallet_group_balances (project_id, group_id, asset_id, amount, held, holders)
     SELECT g.project_id, g.id, b.asset_id, sum(b.amount), sum(b.held), count(*) FROM wallet_groups g
       JOIN wallet_groups d ON d.project_id = g.project_id AND g.id = ANY (d.path)
       JOIN wallets w ON w.project_id = d.project_id AND w.group_id = d.id JOIN balances b ON b.wallet_id = w.id
      WHERE g.project_id = $1 GROUP BY g.project_id, g.id, b.asset_id`,
    [p.projectId],
  );
  await t.db.query(
    `UPDATE wallet_groups g SET wallets = (SELECT count(*) FROM wallet_groups d JOIN wallets w ON w.project_id = d.project_id AND w.group_id = d.id WHERE d.project_id = g.project_id AND g.id = ANY (d.path)) WHERE g.project_id = $1`,
    [p.projectId],
  );
  // Staging (with Left and Right and every wallet) moves under Top through the API: Top's sums are the service's own
  await expectStatus(t.request('PUT', `/wallet-groups/${staging}`, { key, body: { projectId: p.projectId, parentId: top } }), 200);
  await t.db.query('ANALYZE wallets; ANALYZE balances; ANALYZE wallet_groups; ANALYZE wallet_group_balances');
  const read = await expectStatus(t.request('GET', `/wallet-groups/${top}`, { key }), 200);
  expect(read.group.balances).toEqual([{ currency: 'PTS', balance: wallets, held: 0, available: wallets, incoming: 0, wallets }]);
  return { p, top };
}

const NESTED = `query ($id: ID!) { project(id: $id) { walletGroups(first: 20) { edges { node { id name balances { currency balance held available incoming wallets }
  groups { id name balances { currency balance held available incoming wallets } } } } } } }`;

describe('group read latency', () => {
  it.each([10, 1_000, 100_000])('%i wallets', async (wallets) => {
    const { p, top } = await groupOf(wallets);
    const rest = await timed(() => expectStatus(t.request('GET', `/wallet-groups/${top}`, { key }), 200));
    const planned = await raw(t, key, NESTED, { id: String(p.projectId) });
    expect(planned.headers.get('x-graphql-plan')).toBe('sql');
    const graphql = await timed(() => raw(t, key, NESTED, { id: String(p.projectId) }));
    const [explained] = await t.db.query<{ 'QUERY PLAN': { Plan: Record<string, number> }[] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${groupBalancesSql('unnest($1::int[], $2::uuid[]) AS x (project_id, id)', 'x')}`,
      [[p.projectId], [top]],
    );
    const buffers = explained['QUERY PLAN'][0].Plan['Shared Hit Blocks'] + explained['QUERY PLAN'][0].Plan['Shared Read Blocks'];
    log(`read ${String(wallets).padStart(7)} wallets: roll-up statement reads ${buffers} buffers;`);
    log(`read ${String(wallets).padStart(7)} wallets: REST GET /wallet-groups/{id} p50 ${rest.p50.toFixed(2)} ms p95 ${rest.p95.toFixed(2)} ms; GraphQL nested (1 statement) p50 ${graphql.p50.toFixed(2)} ms p95 ${graphql.p95.toFixed(2)} ms`);
  }, 600_000);
});

describe('transfers per second, wallets in groups of depth 3 against wallets in none', () => {
  it('alternating rounds', async () => {
    const p = await fundedProject(t, key, { name: 'transfers', customers: 2 * CLIENTS, systemBalance: 10_000_000, fund: 10_000 });
    const grouped = p.customers.slice(0, CLIENTS);
    const loose = p.customers.slice(CLIENTS);
    const create = async (name: string, parentId?: string) => (await expectStatus(t.request('POST', '/wallet-groups', { key, body: { projectId: p.projectId, name, parentId } }), 201)).group.id as string;
    const root = await create('Root');
    const regions = [await create('Region A', root), await create('Region B', root)];
    const stores = [await create('Store 1', regions[0]), await create('Store 2', regions[0]), await create('Store 3', regions[1]), await create('Store 4', regions[1])];
    for (const [i, w] of grouped.entries()) await expectStatus(t.request('PUT', `/wallet-groups/${stores[i % 4]}/wallets/${w.id}`, { key, body: { projectId: p.projectId } }), 200);

    /** CLIENTS clients, each sending transfers one after another for ROUND_MS: wallet i → wallet i+1. */
    async function round(wallets: typeof grouped): Promise<number> {
      let done = 0;
      const until = performance.now() + ROUND_MS;
      await Promise.all(
        wallets.map(async (from, i) => {
          const to = wallets[(i + 1) % wallets.length];
          while (performance.now() < until) {
            await expectStatus(t.request('POST', '/transactions', { key, body: { amount: 0.01, currency: p.symbol, from: from.id, to: to.id, projectId: p.projectId } }), 201);
            done++;
          }
        }),
      );
      return done / (ROUND_MS / 1000);
    }
    await round(loose); // warm (the first rounds of a fresh process run slower)
    await round(grouped);
    const none: number[] = [];
    const depth3: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      none.push(await round(loose));
      depth3.push(await round(grouped));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    log(`transfers/s, ${CLIENTS} clients, ${ROUNDS} alternating rounds of ${ROUND_MS / 1000} s: no group ${none.map((x) => x.toFixed(0)).join(', ')} (median ${median(none).toFixed(0)}); groups of depth 3 ${depth3.map((x) => x.toFixed(0)).join(', ')} (median ${median(depth3).toFixed(0)}); ratio ${(median(depth3) / median(none)).toFixed(3)}`);
    const [drift] = await t.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM wallet_group_balances s WHERE s.project_id = $1 AND s.amount <> (
         SELECT coalesce(sum(b.amount), 0) FROM wallet_groups d JOIN wallets w ON w.project_id = d.project_id AND w.group_id = d.id
           JOIN balances b ON b.wallet_id = w.id AND b.asset_id = s.asset_id WHERE d.project_id = s.project_id AND s.group_id = ANY (d.path))`,
      [p.projectId],
    );
    expect(drift.n).toBe('0');
  }, 600_000);
});

describe('the posting routine alone, a batch of 20 transfers', () => {
  it('in wallets of no group against wallets of depth-3 groups, alternating', async () => {
    const p = await fundedProject(t, key, { name: 'routine', customers: 40, systemBalance: 10_000_000, fund: 10_000 });
    const grouped = p.customers.slice(0, 20).map((w) => w.id);
    const loose = p.customers.slice(20).map((w) => w.id);
    let parent: string | undefined;
    for (const name of ['Root', 'Region', 'Store']) parent = (await expectStatus(t.request('POST', '/wallet-groups', { key, body: { projectId: p.projectId, name, parentId: parent } }), 201)).group.id;
    for (const w of grouped) await expectStatus(t.request('PUT', `/wallet-groups/${parent}/wallets/${w}`, { key, body: { projectId: p.projectId } }), 200);
    const timeWith = async (routine: string, wallets: string[]) => {
      const start = performance.now();
      await t.db.query(
        `SELECT count(*) FROM ${routine}($1::text[], $2::int[], $3::uuid[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::int[], $9::uuid[], $10::text[], $11::json[], $12::int[]) WHERE code = 'ok'`,
        [
          wallets.map(() => 'transfer'),
          wallets.map(() => p.projectId),
          wallets.map(() => p.assetId),
          wallets,
          wallets.map((_, i) => wallets[(i + 1) % wallets.length]),
          wallets.map(() => 1),
          ...Array.from({ length: 6 }, () => wallets.map(() => null)),
        ],
      );
      return performance.now() - start;
    };
    const time = (wallets: string[]) => timeWith('ledger_post', wallets);
    for (let i = 0; i < 50; i++) {
      await time(loose); // warm: plans cached, rows in memory
      await time(grouped);
    }
    const ratios: number[] = [];
    const none: number[] = [];
    const depth3: number[] = [];
    for (let i = 0; i < 400; i++) {
      // which side goes first alternates; a is always the no-group batch, b the grouped one
      const [a, b] = i % 2 ? [await time(loose), await time(grouped)] : [await time(grouped), await time(loose)].reverse();
      none.push(a);
      depth3.push(b);
      ratios.push(b / a);
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    // wallets in no group: this routine against the one before groups (its first statement was a PERFORM)
    const before = execFileSync('git', ['show', 'e8be792:src/domain/ledger/ledger_post.sql'], { encoding: 'utf8' })
      .replace(/^DROP FUNCTION.*$/m, '')
      .replace('CREATE OR REPLACE FUNCTION ledger_post(', 'CREATE OR REPLACE FUNCTION ledger_post_before_groups(');
    await t.db.query(before);
    for (let i = 0; i < 50; i++) {
      await timeWith('ledger_post_before_groups', loose);
      await timeWith('ledger_post', loose);
    }
    const old: number[] = [];
    const now: number[] = [];
    const versus: number[] = [];
    for (let i = 0; i < 400; i++) {
      const [a, b] = i % 2 ? [await timeWith('ledger_post_before_groups', loose), await timeWith('ledger_post', loose)] : [await timeWith('ledger_post', loose), await timeWith('ledger_post_before_groups', loose)].reverse();
      old.push(a);
      now.push(b);
      versus.push(b / a);
    }
    // the noise floor: the same routine on both sides of each pair
    const same: number[] = [];
    for (let i = 0; i < 400; i++) same.push((await timeWith('ledger_post', loose)) / (await timeWith('ledger_post', loose)));
    log(`ledger_post against itself (the noise floor), 400 pairs: median per-pair ratio ${median(same).toFixed(3)}`);
    log(`ledger_post, 20 transfers a batch in no group, 400 alternating pairs: before groups median ${median(old).toFixed(3)} ms; now median ${median(now).toFixed(3)} ms; median per-pair ratio ${median(versus).toFixed(3)}`);
    log(`ledger_post, 20 transfers a batch, 400 alternating pairs: no group median ${median(none).toFixed(3)} ms; groups of depth 3 median ${median(depth3).toFixed(3)} ms; median per-pair ratio ${median(ratios).toFixed(3)}`);
  }, 600_000);
});
