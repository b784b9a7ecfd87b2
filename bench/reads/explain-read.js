// EXPLAIN ANALYZE of the nested read, both ways, on the benchmark's data (seeded by SQL):
// the SQL plan the service compiles for the read workload's query, and the baseline's query.
//   node bench/reads/explain-read.js [--history 3000]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'graphql';
import { startCluster, harnessPool } from '../lib/postgres.js';
import { seedBaselineBySql, seedService } from '../lib/seed.js';
import { startServer, freePort } from '../lib/processes.js';
import { readQuery } from '../workloads/read.js';
import { buildReadSql } from '../baseline/read.js';
import { buildLedgerSchema } from '../../dist/src/graphql/schema.js';
import { planQuery } from '../../dist/src/graphql/sql-plan/planner.js';

const { values: opts } = parseArgs({ options: { history: { type: 'string', default: '3000' }, runs: { type: 'string', default: '20' }, 'via-service': { type: 'boolean', default: false } } });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-explain-'));
const cluster = await startCluster(tmp);
try {
  const url = await cluster.createMigratedDatabase('explain');
  const pool = harnessPool(url);
  let fixture;
  if (opts['via-service']) {
    // as the benchmark seeds the service: through its HTTP API
    const adminToken = 'explain-admin-token';
    const service = await startServer('service', ['dist/src/main.js'], { DATABASE_URL: url, PORT: String(await freePort()), HOST: '127.0.0.1', LEDGER_ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' });
    fixture = await seedService(service.url, adminToken, { historyTransfers: Number(opts.history) });
    await service.stop();
  } else {
    fixture = await seedBaselineBySql(pool, { historyTransfers: Number(opts.history) });
  }
  if (process.env.ANALYZE !== '0') await pool.query('ANALYZE');
  const { schema } = await buildLedgerSchema();
  const document = parse(readQuery(fixture.projectId));
  const owner = (await pool.query('SELECT owner_id FROM projects WHERE id = $1', [fixture.projectId])).rows[0].owner_id;
  const plan = planQuery({ schema, document, operationName: null, variables: {}, ownerId: owner, maxPageSize: 100 });
  const baseline = { sql: buildReadSql(), params: [fixture.projectId, owner, 100] };
  for (const [name, { sql, params }] of Object.entries({ plan, baseline })) {
    const times = [];
    for (let i = 0; i < Number(opts.runs); i += 1) {
      const started = process.hrtime.bigint();
      await pool.query(sql, params);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    times.sort((a, b) => a - b);
    const { rows } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
    console.log(`\n===== ${name}: median ${times[times.length >> 1].toFixed(2)} ms over ${times.length} runs\n${sql}\n`);
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  await pool.end();
} finally {
  await cluster.stop();
  rmSync(tmp, { recursive: true, force: true });
}
