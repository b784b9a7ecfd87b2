// What the §19 capture rule (issue 36) costs a capture in a currency with limits: limits_check
// as a capture now runs it (the sender's debit limits, filtered to those its hold has aged out
// of, then the receiver's credit limits) against the receiver-only check a capture ran before
// (emulated with p_from NULL, which skips the sender's statement exactly as p_debit = false did),
// and against a transfer's check. Wallet with 3 debit limits, 1 credit limit, two pending holds
// (one inside every window, one aged out of the shortest) and 10,000 debits in the window.
// Calls alternate by round so machine drift cancels out; each figure is the median of the
// rounds' means. The machine is shared: compare the ratios.
//   node bench/posting/capture-limit-check.js [--calls 2000] [--rounds 5] [--out bench/results/...]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startCluster } from '../lib/postgres.js';

const { values: opts } = parseArgs({ options: { calls: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '9' }, out: { type: 'string' } } });
const lines = [];
const say = (line = '') => {
  console.log(line);
  lines.push(line);
};

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-capture-limit-'));
const cluster = await startCluster(tmp);
try {
  const client = new pg.Client({ connectionString: await cluster.createMigratedDatabase('capture_limit') });
  await client.connect();
  const ids = { asset: randomUUID(), alice: randomUUID(), bob: randomUUID(), fresh: randomUUID(), aged: randomUUID() };
  await client.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ('o', 'pro', 's')`);
  const project = (await client.query(`INSERT INTO projects (owner_id, name) VALUES ('o', 'bench') RETURNING id`)).rows[0].id;
  await client.query(`INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions, limit_count) VALUES ($1, $2, 'o', 'P', 'PTS', 0, 4)`, [ids.asset, project]);
  await client.query(`INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES ($1, $3, 'o', 'alice', 'customer'), ($2, $3, 'o', 'bob', 'customer')`, [ids.alice, ids.bob, project]);
  await client.query(`INSERT INTO balances (wallet_id, asset_id, project_id, amount, held, debited) VALUES ($1, $3, $4, 1000000000, 20, 10000), ($2, $3, $4, 0, 0, 0)`, [ids.alice, ids.bob, ids.asset, project]);
  await client.query(
    `INSERT INTO holds (id, project_id, asset_id, from_wallet_id, to_wallet_id, amount, status, created_at, updated_at)
     VALUES ($5, $1, $2, $3, $4, 10, 'pending', now(), now()), ($6, $1, $2, $3, $4, 10, 'pending', now() - interval '2 minutes', now())`,
    [project, ids.asset, ids.alice, ids.bob, ids.fresh, ids.aged],
  );
  // 10,000 debits of 1 inside the hour, with their running totals (the as-of descents read them)
  await client.query(
    `INSERT INTO transactions (id, project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count, created_at, from_debited, to_credited)
     SELECT gen_random_uuid(), $1, $2, 'transfer', $3, $4, 1, 0, 0, g, g, now() - interval '50 minutes' + g * interval '100 ms', g, g FROM generate_series(1, 10000) g`,
    [project, ids.asset, ids.alice, ids.bob],
  );
  await client.query(
    `INSERT INTO limits (project_id, asset_id, direction, amount, window_seconds)
     VALUES ($1, $2, 'debit', 1000, 60), ($1, $2, 'debit', 1000000000, 3600), ($1, $2, 'debit', 1000000000, 86400), ($1, $2, 'credit', 1000000000, 86400)`,
    [project, ids.asset],
  );
  await client.query('ANALYZE');
  const arms = {
    'transfer (every limit of both sides)': [ids.alice, null],
    'capture before issue 36 (receiver only)': [null, null],
    'capture now, hold inside every window': [ids.alice, ids.fresh],
    'capture now, hold aged out of the 60 s window': [ids.alice, ids.aged],
  };
  const sql = `SELECT limits_check($1, $2, $3, $4, 1, $5, true, 0, now())`;
  // the fresh hold must stay inside the 60 s window however long the rounds take: both re-dated before each run
  const redate = () =>
    client.query(`UPDATE holds SET created_at = CASE id WHEN $1 THEN now() ELSE now() - interval '2 minutes' END WHERE id IN ($1, $2)`, [ids.fresh, ids.aged]);
  const run = async ([from, hold], calls) => {
    await redate();
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await client.query({ name: 'check', text: sql, values: [project, ids.asset, from, ids.bob, hold] });
    return Number(process.hrtime.bigint() - started) / 1e3 / calls;
  };
  for (const arm of Object.values(arms)) await run(arm, 200); // warm-up: plans cached, pages in memory
  const means = Object.fromEntries(Object.keys(arms).map((name) => [name, []]));
  const calls = Number(opts.calls);
  for (let round = 0; round < Number(opts.rounds); round++) {
    const order = Object.keys(arms);
    if (round % 2) order.reverse();
    for (const name of order) means[name].push(await run(arms[name], calls));
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  say(`limits_check per call, µs (median of ${opts.rounds} rounds of ${calls} calls over one connection; round trip included)`);
  const base = median(means['capture before issue 36 (receiver only)']);
  for (const [name, values] of Object.entries(means)) {
    say(`  ${name.padEnd(48)} ${median(values).toFixed(1).padStart(8)}   ×${(median(values) / base).toFixed(2)} of the old capture   rounds: ${values.map((v) => v.toFixed(0)).join(' ')}`);
  }
  await redate();
  for (const [name, [from, hold]] of Object.entries(arms)) {
    const explained = await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, values: [project, ids.asset, from, ids.bob, hold] });
    const plan = explained.rows[0]['QUERY PLAN'][0];
    say(`  ${name}: shared buffers hit ${plan.Plan['Shared Hit Blocks']}, read ${plan.Plan['Shared Read Blocks']}`);
  }
  await redate();
  // the 60 s limit (1,000) counts the fresh hold (10) but no longer the aged one: capturing 995 of it is refused, remaining 990
  const refusal = await client.query(sql.replace('$4, 1, $5', '$4, 995, $5'), [project, ids.asset, ids.alice, ids.bob, ids.aged]);
  const allowed = await client.query(sql.replace('$4, 1, $5', '$4, 995, $5'), [project, ids.asset, ids.alice, ids.bob, ids.fresh]);
  say(`  capturing 995 against the 60 s limit of 1,000: aged hold ${JSON.stringify(refusal.rows[0].limits_check)}, hold inside the window ${JSON.stringify(allowed.rows[0].limits_check)}`);
  await client.end();
} finally {
  await cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
}
say(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
if (opts.out) writeFileSync(opts.out, lines.join('\n') + '\n');
