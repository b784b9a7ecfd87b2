// Seeding.
//
// SERVICE: through its real HTTP API, the way a user would: an API key from
// POST /admin/api-keys (enterprise plan), POST /projects, POST /assets (PTS, 2 fractions),
// 1,000 × POST /wallets/create/customer, 1 × POST /wallets/create/system,
// POST /transactions/seed into the system wallet, and one POST /transactions from the system
// wallet to every customer wallet. 32 requests in flight.
//
// BASELINE: the same rows, copied by direct SQL from the service database once the service
// has been seeded (copyRows): owners, api_keys (the same key hash, so the same api_key works),
// projects, assets, wallets, balances and transactions, ids and identity values included.
// Both contestants therefore start from byte-identical ledgers. Without the service
// (--baseline-only), seedBaselineBySql generates equivalent rows directly.

import { createHash, randomBytes } from 'node:crypto';
import { call, parallel } from './http.js';

export const SEED = {
  customers: 1000,
  currency: 'PTS',
  fractions: 2,
  /** Major units seeded into the system wallet. */
  systemSeed: 10_000_000_000,
  /** Major units sent to every customer wallet. */
  customerFunding: 1000,
  concurrency: 32,
  owner: 'bench',
};

export const minorOf = (major) => BigInt(major) * 10n ** BigInt(SEED.fractions);

/** Seeds the service over HTTP. `historyTransfers` extra random customer->customer transfers give wallets a history. */
export async function seedService(base, adminToken, { historyTransfers = 0, log = () => undefined } = {}) {
  const issued = await call(base, 'POST', '/admin/api-keys', {
    headers: { admin_token: adminToken },
    body: { owner: SEED.owner, plan_code: 'enterprise' },
  });
  const apiKey = issued.json.api_key;
  const auth = { api_key: apiKey };
  const project = await call(base, 'POST', '/projects', { headers: auth, body: { name: 'bench' } });
  const projectId = project.json.id;
  await call(base, 'POST', '/assets', {
    headers: auth,
    body: { name: 'Points', symbol: SEED.currency, fractions: SEED.fractions, projectId },
  });
  const started = Date.now();
  const customers = await parallel(SEED.customers, SEED.concurrency, async () => {
    const { json } = await call(base, 'POST', '/wallets/create/customer', { headers: auth, body: { projectId } });
    return { id: json.id, address: json.address };
  });
  const system = (await call(base, 'POST', '/wallets/create/system', { headers: auth, body: { projectId } })).json;
  log(`  ${SEED.customers + 1} wallets created in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await call(base, 'POST', '/transactions/seed', {
    headers: auth,
    body: { amount: SEED.systemSeed, currency: SEED.currency, projectId, to: system.id },
  });
  const funding = Date.now();
  await parallel(customers.length, SEED.concurrency, (i) =>
    call(base, 'POST', '/transactions', {
      headers: auth,
      body: { amount: SEED.customerFunding, currency: SEED.currency, from: system.id, to: customers[i].id, projectId },
    }),
  );
  log(`  ${customers.length} customer wallets funded in ${((Date.now() - funding) / 1000).toFixed(1)} s`);
  if (historyTransfers > 0) {
    const history = Date.now();
    await parallel(historyTransfers, SEED.concurrency, () => {
      const from = Math.floor(Math.random() * customers.length);
      let to = Math.floor(Math.random() * (customers.length - 1));
      if (to >= from) to += 1;
      return call(base, 'POST', '/transactions', {
        headers: auth,
        body: { amount: 1, currency: SEED.currency, from: customers[from].id, to: customers[to].id, projectId },
      });
    });
    log(`  ${historyTransfers} history transfers in ${((Date.now() - history) / 1000).toFixed(1)} s`);
  }
  return fixture(apiKey, projectId, { id: system.id, address: system.address }, customers);
}

function fixture(apiKey, projectId, systemWallet, customers) {
  return {
    apiKey,
    projectId,
    currency: SEED.currency,
    fractions: SEED.fractions,
    systemWallet,
    customers,
    seededMinor: minorOf(SEED.systemSeed),
  };
}

const COPIED_TABLES = ['owners', 'api_keys', 'projects', 'assets', 'wallets', 'balances', 'transactions'];

/**
 * Copies the seeded rows of the service database into the (migrated, empty) baseline
 * database with plain SQL: json_agg on one side, json_populate_recordset on the other,
 * identity values kept (OVERRIDING SYSTEM VALUE) and identity sequences moved past them.
 * FK triggers are off during the copy (projects.asset_id and assets.project_id point at
 * each other); every copied row satisfied them in the source.
 */
export async function copyRows(sourcePool, targetPool) {
  const client = await targetPool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    for (const table of COPIED_TABLES) {
      const { rows } = await sourcePool.query(`SELECT coalesce(json_agg(t), '[]'::json)::text AS rows FROM ${table} t`);
      await client.query(
        `INSERT INTO ${table} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`,
        [rows[0].rows],
      );
    }
    const identities = await client.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND is_identity = 'YES' AND table_name = ANY ($1)`,
      [COPIED_TABLES],
    );
    for (const { table_name: table, column_name: column } of identities.rows) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${column}) FROM ${table}), 0) + 1, false)`,
        [table, column],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  // Both databases get fresh statistics, so both planners start from the same knowledge of the
  // same rows (autovacuum would analyze them within a minute or so, in the middle of a run).
  for (const pool of [sourcePool, targetPool]) for (const table of COPIED_TABLES) await pool.query(`ANALYZE ${table}`);
}

/**
 * Without the service (--baseline-only): the same kind of rows generated by SQL. An owner on
 * the enterprise plan with one key, a project, the PTS asset, 1,000 customer wallets and one
 * system wallet, a seed from @mint, one funding transfer per customer with running balances,
 * and `historyTransfers` customer->customer transfers of 1 PTS (in a sequence that never
 * overdraws). Returns the same fixture as seedService.
 */
export async function seedBaselineBySql(pool, { historyTransfers = 0 } = {}) {
  const apiKey = `lk_${randomBytes(32).toString('base64url')}`;
  const hash = createHash('sha256').update(apiKey).digest('hex');
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`INSERT INTO owners (id, plan_code, subscription_code) VALUES ($1, 'enterprise', 'SUB_BENCH')`, [SEED.owner]);
    await client.query(`INSERT INTO api_keys (key_hash, owner_id) VALUES ($1, $2)`, [hash, SEED.owner]);
    const project = await client.query(`INSERT INTO projects (owner_id, name) VALUES ($1, 'bench') RETURNING id`, [SEED.owner]);
    const projectId = project.rows[0].id;
    const asset = await client.query(
      `INSERT INTO assets (id, project_id, owner_id, name, symbol, fractions) VALUES (gen_random_uuid(), $1, $2, 'Points', $3, $4) RETURNING id`,
      [projectId, SEED.owner, SEED.currency, SEED.fractions],
    );
    const assetId = asset.rows[0].id;
    await client.query(`UPDATE projects SET asset_id = $1 WHERE id = $2`, [assetId, projectId]);
    const customers = (
      await client.query(
        `INSERT INTO wallets (id, project_id, owner_id, address, type)
         SELECT gen_random_uuid(), $1, $2, 'customer-' || lpad(g::text, 4, '0'), 'customer' FROM generate_series(1, $3) g
         ORDER BY g RETURNING id, address`,
        [projectId, SEED.owner, SEED.customers],
      )
    ).rows;
    const system = (
      await client.query(
        `INSERT INTO wallets (id, project_id, owner_id, address, type) VALUES (gen_random_uuid(), $1, $2, 'system-1', 'system') RETURNING id, address`,
        [projectId, SEED.owner],
      )
    ).rows[0];
    const seeded = minorOf(SEED.systemSeed);
    const funding = minorOf(SEED.customerFunding);
    await client.query(
      `INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count)
       VALUES ($1, $2, 'seed', NULL, $3, $4, NULL, $4, NULL, 1)`,
      [projectId, assetId, system.id, seeded.toString()],
    );
    await client.query(
      `INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count)
       SELECT $1, $2, 'transfer', $3, c.id, $5::bigint, $4::bigint - c.n * $5::bigint, $5::bigint, c.n + 1, 1
         FROM unnest($6::uuid[]) WITH ORDINALITY AS c (id, n) ORDER BY c.n`,
      [projectId, assetId, system.id, seeded.toString(), funding.toString(), customers.map((c) => c.id)],
    );
    // History: transfers of 1 PTS between random customers, balances tracked here.
    const balances = customers.map(() => funding);
    const counts = customers.map(() => 1); // each customer's funding transfer
    const unit = minorOf(1);
    const rows = { from: [], to: [], fromBal: [], toBal: [], fromN: [], toN: [] };
    for (let k = 0; k < historyTransfers; k++) {
      const from = Math.floor(Math.random() * customers.length);
      let to = Math.floor(Math.random() * (customers.length - 1));
      if (to >= from) to += 1;
      if (balances[from] < unit) continue;
      balances[from] -= unit;
      balances[to] += unit;
      rows.from.push(customers[from].id);
      rows.to.push(customers[to].id);
      rows.fromBal.push(balances[from].toString());
      rows.toBal.push(balances[to].toString());
      rows.fromN.push(++counts[from]);
      rows.toN.push(++counts[to]);
    }
    if (rows.from.length) {
      await client.query(
        `INSERT INTO transactions (project_id, asset_id, kind, from_wallet_id, to_wallet_id, amount, from_balance, to_balance, from_count, to_count)
         SELECT $1, $2, 'transfer', h.f, h.t, $3, h.fb, h.tb, h.fn, h.tn
           FROM unnest($4::uuid[], $5::uuid[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[]) WITH ORDINALITY AS h (f, t, fb, tb, fn, tn, n) ORDER BY h.n`,
        [projectId, assetId, unit.toString(), rows.from, rows.to, rows.fromBal, rows.toBal, rows.fromN, rows.toN],
      );
    }
    const systemBalance = seeded - BigInt(customers.length) * funding;
    await client.query(
      `INSERT INTO balances (wallet_id, asset_id, project_id, amount, tx_count)
       SELECT w, $1, $2, a, n FROM unnest($3::uuid[], $4::bigint[], $5::bigint[]) AS b (w, a, n)`,
      [assetId, projectId, [system.id, ...customers.map((c) => c.id)], [systemBalance.toString(), ...balances.map(String)], [1 + customers.length, ...counts]],
    );
    await client.query('COMMIT');
    for (const table of COPIED_TABLES) await pool.query(`ANALYZE ${table}`);
    return fixture(apiKey, projectId, system, customers);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
