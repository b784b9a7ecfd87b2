// Does one balance row updated N times in ONE transaction get dearer with N (issue 23, P2)? A
// ledger_post batch of hot transfers (bench/posting/posting-cpu.mjs --hot) debits the system wallet's row
// once per transfer, and no version its own transaction made can be pruned before it commits, so
// each UPDATE might walk a longer HOT chain, and once the page is full go non-HOT. This times the
// UPDATEs of one transaction (the debit of ledger_move, in plpgsql) — the median of the first 20
// against that of the last 20 — for the seeded system wallet's row and for a customer's, then, inside one transaction
// of 200, reads the row's page (pageinspect: line pointers, HOT-updated tuples) and the table's
// update counters (updates against HOT updates).
//
//   npm run build && node bench/posting/hot-row-updates.mjs

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startCluster } from '../lib/postgres.js';
import { seedBaselineBySql } from '../lib/seed.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'hot-row-'));
const cluster = await startCluster(dataDir);
try {
  const url = await cluster.createMigratedDatabase('hot_row');
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const fixture = await seedBaselineBySql(pool);
  await pool.end();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  client.on('notice', (notice) => console.log(`  ${notice.message}`));
  await client.query('CREATE EXTENSION IF NOT EXISTS pageinspect');
  const timed = (wallet, n) =>
    client.query(`DO $$ DECLARE t0 timestamptz; took float8[] := '{}'; BEGIN
      FOR i IN 1..${n} LOOP
        t0 := clock_timestamp();
        UPDATE balances SET amount = amount - 1, tx_count = tx_count + 1, debited = debited + 1
         WHERE wallet_id = '${wallet}' AND amount - held >= 1;
        took := took || extract(epoch FROM clock_timestamp() - t0)::float8 * 1e6;
      END LOOP;
      RAISE NOTICE '% UPDATEs in one transaction: median of the first 20 % µs, of the last 20 % µs', ${n},
        (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY t)::numeric, 1) FROM unnest(took[1:20]) t),
        (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY t)::numeric, 1) FROM unnest(took[${n} - 19:${n}]) t);
    END $$`);
  const rows = { 'system wallet (hot)': fixture.systemWallet.id, 'a customer (another page, the same N UPDATEs)': fixture.customers[0].id };
  for (let round = 0; round < 2; round++) {
    for (const [label, wallet] of Object.entries(rows)) {
      console.log(`${label}, round ${round + 1}:`);
      for (const n of [30, 60, 200]) await timed(wallet, n);
    }
  }
  await client.query('BEGIN');
  await timed(fixture.systemWallet.id, 200);
  const { rows: [at] } = await client.query(`SELECT ctid::text FROM balances WHERE wallet_id = $1`, [fixture.systemWallet.id]);
  const page = Number(at.ctid.slice(1).split(',')[0]);
  const { rows: [items] } = await client.query(
    `SELECT count(*) AS line_pointers, count(*) FILTER (WHERE (t_infomask2 & 16384) <> 0) AS hot_updated FROM heap_page_items(get_raw_page('balances', $1))`,
    [page],
  );
  const { rows: [counts] } = await client.query(
    `SELECT pg_stat_get_xact_tuples_updated('balances'::regclass) AS updated, pg_stat_get_xact_tuples_hot_updated('balances'::regclass) AS hot`,
  );
  await client.query('COMMIT');
  console.log(`inside one transaction of 200: the row now at ${at.ctid}; its page ${page}: ${items.line_pointers} line pointers, ${items.hot_updated} HOT-updated tuples`);
  console.log(`this session's UPDATEs of balances (all of the above; statistics not yet reported): ${counts.updated}, of them HOT ${counts.hot}`);
  console.log(`load average ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  await client.end();
} finally {
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
