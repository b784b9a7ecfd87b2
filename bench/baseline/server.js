// The benchmark BASELINE: a minimal, framework-free implementation (node:http + pg.Pool) of
//   POST /transactions  - the contract's transfer semantics and JSON, ONE prepared statement
//                         per transfer (transfer.js);
//   POST /graphql       - the read workload's nested query and the entities workload's
//                         `_entities` of Wallets, each answered by ONE SQL query.
// It runs against a database created by the service's own migrations and seeded with the
// same rows. It is what a competent engineer would write without the service's framework:
// no ORM, no idempotency keys, no daily call quota, no GraphQL engine.
//
// Env: DATABASE_URL (required), PORT (default 0 = any), HOST (default 127.0.0.1),
//      POOL_SIZE (default 20, the service's default LEDGER_DB_POOL_SIZE).
// Prints `listening on http://HOST:PORT` when ready. Every response carries
// `x-sql-statements` (statements sent for that request).

import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { numberToDecimal, toMinor, toMajor } from './money.js';
import { transferSql, positional } from './transfer.js';
import { buildReadSql, buildEntitiesSql } from './read.js';
import { READ_SHAPE, projectIdFromQuery } from '../workloads/read.js';

const MAX_BODY_BYTES = 100 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TRANSFER_FIELDS = ['amount', 'currency', 'from', 'to', 'projectId'];

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 20) });
pool.on('error', (err) => process.stderr.write(`idle client error: ${err.message}\n`));

class HttpError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}
const invalid = (field, problem) => new HttpError(400, 'validation_error', `${field}: ${problem}`, { field });

// ---------------------------------------------------------------- authentication

/** key hash -> owner id; looked up once, then cached for the life of the process. */
const owners = new Map();

async function authenticate(req, stats) {
  const key = req.headers.api_key;
  if (typeof key !== 'string' || key === '') throw new HttpError(401, 'unauthorized', 'missing api_key header');
  const hash = createHash('sha256').update(key).digest('hex');
  let owner = owners.get(hash);
  if (owner === undefined) {
    stats.statements += 1;
    const { rows } = await pool.query('SELECT owner_id FROM api_keys WHERE key_hash = $1', [hash]);
    if (rows.length === 0) throw new HttpError(401, 'unauthorized', 'unknown api_key');
    owner = rows[0].owner_id;
    owners.set(hash, owner);
  }
  return owner;
}

// ---------------------------------------------------------------- body

function readJson(req) {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      req.resume();
      reject(new HttpError(413, 'payload_too_large', 'request body too large'));
      return;
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return reject(new HttpError(413, 'payload_too_large', 'request body too large'));
      if (type !== 'application/json') return reject(new HttpError(415, 'unsupported_media_type', 'Content-Type must be application/json'));
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new HttpError(400, 'invalid_json', 'request body is not valid JSON'));
      }
    });
  });
}

// ---------------------------------------------------------------- POST /transactions

function validateTransfer(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('body', 'must be an object');
  for (const key of Object.keys(body)) if (!TRANSFER_FIELDS.includes(key)) throw invalid(key, 'unknown field');
  const { amount, currency, from, to, projectId } = body;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) throw invalid('amount', 'must be a positive number');
  if (typeof currency !== 'string' || currency.length < 1 || currency.length > 12) throw invalid('currency', 'must be an asset symbol');
  if (typeof from !== 'string' || from.length < 1 || from.length > 128) throw invalid('from', 'must be a wallet id or address');
  if (typeof to !== 'string' || to.length < 1 || to.length > 128) throw invalid('to', 'must be a wallet id or address');
  if (!Number.isInteger(projectId) || projectId < 1 || projectId > 2147483647) throw invalid('projectId', 'must be a project id');
  if (from === to) throw invalid('to', 'must differ from from');
  return { amount, currency, from, to, projectId };
}

/** Four prepared statements: each side names its wallet by id or by address. */
const TRANSFERS = {};
for (const from of ['id', 'address']) {
  for (const to of ['id', 'address']) {
    TRANSFERS[`${from}/${to}`] = { name: `transfer_${from}_${to}`, text: transferSql({ from, to, param: positional }) };
  }
}

async function transfer(owner, body, stats) {
  const t = validateTransfer(body);
  const amount = numberToDecimal(t.amount);
  if (!/^\d+(\.\d+)?$/.test(amount)) throw invalid('amount', 'must be a positive decimal number');
  const statement = TRANSFERS[`${UUID.test(t.from) ? 'id' : 'address'}/${UUID.test(t.to) ? 'id' : 'address'}`];
  stats.statements += 1;
  const { rows } = await pool.query({ ...statement, values: [t.projectId, owner, t.currency, amount, t.from, t.to] });
  const r = rows[0];
  if (r.fractions === null) throw new HttpError(404, 'not_found', 'project or currency not found');
  if (r.from_address === null) throw new HttpError(404, 'not_found', 'wallet not found', { field: 'from' });
  if (r.to_address === null) throw new HttpError(404, 'not_found', 'wallet not found', { field: 'to' });
  if (r.same_wallet) throw invalid('to', 'must differ from from');
  const converted = toMinor(t.amount, r.fractions);
  if (converted.problem) throw invalid('amount', converted.problem);
  if (r.from_status !== 'active' || r.to_status !== 'active') throw new HttpError(409, 'wallet_inactive', 'both wallets must be active');
  if (r.id === null) throw new HttpError(409, 'insufficient_funds', 'insufficient funds', { wallet: r.from_address });
  return {
    status: 201,
    body: {
      transaction: {
        id: r.id,
        amount: toMajor(r.amount, r.fractions),
        currency: t.currency,
        balance: toMajor(r.from_balance, r.fractions),
        from: r.from_address,
        to: r.to_address,
        date: r.created_at.toISOString(),
      },
    },
  };
}

// ---------------------------------------------------------------- POST /graphql (read and entities workloads only)

const READ = { name: 'nested_read', text: buildReadSql() };
const ENTITIES = { name: 'wallet_entities', text: buildEntitiesSql() };

/** `_entities` of Wallets (the entities workload) or the nested read (the read workload). */
async function graphql(owner, body, stats) {
  const representations = body?.variables?.r;
  if (Array.isArray(representations) && /\b_entities\b/.test(body?.query ?? '')) {
    const ids = representations.map((r) => r?.id);
    if (!representations.every((r) => r?.__typename === 'Wallet') || !ids.every((id) => typeof id === 'string' && UUID.test(id))) {
      throw invalid('representations', 'the baseline only resolves Wallet representations by id');
    }
    stats.statements += 1;
    const { rows } = await pool.query({ ...ENTITIES, values: [ids, owner] });
    return { status: 200, raw: rows[0].body };
  }
  const projectId = projectIdFromQuery(body?.query);
  if (projectId === undefined) throw invalid('query', 'the baseline only answers the read and entities workloads');
  stats.statements += 1;
  const { rows } = await pool.query({ ...READ, values: [projectId, owner, READ_SHAPE.walletsPerProject] });
  return { status: 200, raw: rows[0].body };
}

// ---------------------------------------------------------------- server

const ROUTES = { 'POST /transactions': transfer, 'POST /graphql': graphql };

const server = createServer(async (req, res) => {
  const stats = { statements: 0 };
  let status;
  let payload;
  try {
    const handler = ROUTES[`${req.method} ${req.url}`];
    if (req.url === '/healthz') {
      status = 200;
      payload = '{"status":"ok"}';
    } else {
      const owner = await authenticate(req, stats);
      if (!handler) throw new HttpError(404, 'not_found', 'route not found');
      const body = await readJson(req);
      const result = await handler(owner, body, stats);
      status = result.status;
      payload = result.raw ?? JSON.stringify(result.body);
    }
  } catch (error) {
    if (error instanceof HttpError) {
      status = error.status;
      payload = JSON.stringify({ code: error.code, message: error.message, details: error.details });
    } else {
      process.stderr.write(`internal error on ${req.method} ${req.url}: ${error?.stack ?? error}\n`);
      status = 500;
      payload = JSON.stringify({ code: 'internal_error', message: 'internal error', details: {} });
    }
  }
  if (!req.complete) req.resume();
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'x-sql-statements': stats.statements,
  });
  res.end(payload);
});
server.keepAliveTimeout = 65_000;

const host = process.env.HOST ?? '127.0.0.1';
server.listen(Number(process.env.PORT ?? 0), host, () => {
  process.stdout.write(`listening on http://${host}:${server.address().port}\n`);
});

const shutdown = () => {
  server.close(() => pool.end().finally(() => process.exit(0)));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
