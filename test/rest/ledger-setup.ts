import type { TestApp } from '../support/test-app.js';

export interface Economy {
  key: string;
  projectId: number;
  symbol: string;
  system: { id: string; address: string };
  customers: { id: string; address: string }[];
}

async function ok<T = any>(promise: Promise<{ status: number; body: T }>, expected: number): Promise<T> {
  const res = await promise;
  if (res.status !== expected) throw new Error(`expected ${expected}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A project with one asset, a seeded system wallet and `customers` customer wallets (each funded with `fund`). */
export async function economy(t: TestApp, owner: string, options: { fractions?: number; customers?: number; seed?: number; fund?: number; symbol?: string; exchangeRate?: number } = {}): Promise<Economy> {
  const { fractions = 2, customers = 2, seed = 1000, fund = 0, symbol = 'PTS' } = options;
  const key = await t.issueKey(owner, 'enterprise');
  const project = await ok(t.request('POST', '/projects', { key, body: { name: `${owner} economy`, ...(options.exchangeRate ? { exchangeRate: options.exchangeRate, supportExchangeRate: true } : {}) } }), 201);
  await ok(t.request('POST', '/assets', { key, body: { name: 'Points', symbol, fractions, projectId: project.id } }), 201);
  const system = await ok(t.request('POST', '/wallets/create/system', { key, body: { projectId: project.id } }), 201);
  const wallets = [];
  for (let i = 0; i < customers; i++) {
    wallets.push(await ok(t.request('POST', '/wallets/create/customer', { key, body: { projectId: project.id, address: `${owner}-c${i}` } }), 201));
  }
  if (seed > 0) await ok(t.request('POST', '/transactions/seed', { key, body: { amount: seed, currency: symbol, projectId: project.id, to: system.id } }), 201);
  if (fund > 0) {
    for (const w of wallets) {
      await ok(t.request('POST', '/transactions', { key, body: { amount: fund, currency: symbol, projectId: project.id, from: system.id, to: w.id } }), 201);
    }
  }
  return {
    key,
    projectId: project.id,
    symbol,
    system: { id: system.id, address: system.address },
    customers: wallets.map((w: { id: string; address: string }) => ({ id: w.id, address: w.address })),
  };
}

/** Balances straight from the database, in minor units. */
export async function minorBalances(t: TestApp, projectId: number): Promise<Map<string, bigint>> {
  const rows = await t.db.query<{ wallet_id: string; amount: string }>(`SELECT wallet_id, amount::text FROM balances WHERE project_id = $1`, [projectId]);
  return new Map(rows.map((r) => [r.wallet_id, BigInt(r.amount)]));
}

export async function transactionCount(t: TestApp): Promise<number> {
  const [row] = await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM transactions`);
  return Number(row.n);
}

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
