import type { PostingLeg } from '../../src/domain/ledger/ledger.types.js';
import type { TestApp } from './test-app.js';

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Well-formed, never issued. */
export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/** Awaits a request and insists on its status (the body is returned for chaining). */
export async function expectStatus<T = any>(request: Promise<{ status: number; body: T }>, status: number): Promise<T> {
  const res = await request;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * What the fixtures send requests through: the in-process TestApp, or test/system/support/http.ts's
 * Api over a service process (real HTTP either way). `issueKey` is needed for the `{ owner }` form.
 */
export interface Requester {
  request<T = any>(method: string, path: string, options: { key?: string; body?: unknown }): Promise<{ status: number; body: T }>;
  issueKey?(owner: string, plan?: string): Promise<string>;
}

export interface WalletRef {
  id: string;
  address: string;
}

export interface FundedProject {
  key: string;
  projectId: number;
  assetId: string;
  symbol: string;
  fractions: number;
  system: WalletRef;
  customers: WalletRef[];
  /** The seed of the system wallet (null when `systemBalance` is 0). */
  seedId: string | null;
  /** The transfers that funded each customer with `fund`, as acknowledged. */
  funding: { id: string; from: string; to: string }[];
}

export interface FundedProjectOptions {
  name?: string;
  assetName?: string;
  symbol?: string;
  fractions?: number;
  customers?: number;
  /** Seeded into the system wallet from @mint, in major units; 0 seeds nothing. */
  systemBalance?: string | number;
  /** Moved from the system wallet to each customer, in major units; 0 funds nothing. */
  fund?: number;
  /** Set on the project with supportExchangeRate (POST /webhook converts with it). */
  exchangeRate?: number;
  systemAddress?: string;
  customerAddress?: (i: number) => string;
}

/**
 * The one fixture builder: a project with one asset, one system wallet (seeded with
 * `systemBalance`) and `customers` customer wallets (each funded with `fund`), all through the
 * real HTTP API. `owner` is an existing key, or `{ owner }` for a new enterprise key whose
 * project (`<owner> economy`) and customer addresses (`<owner>-c<i>`) are named after it.
 */
export async function fundedProject(t: Requester, owner: string | { owner: string }, options: FundedProjectOptions = {}): Promise<FundedProject> {
  const named = typeof owner === 'string' ? undefined : owner.owner;
  const key = named === undefined ? (owner as string) : await t.issueKey!(named, 'enterprise');
  const {
    name = named === undefined ? 'Funded project' : `${named} economy`,
    symbol = 'PTS',
    assetName = named === undefined ? `${symbol} asset` : 'Points',
    fractions = 2,
    customers = 2,
    systemBalance = 1000,
    fund = 0,
    customerAddress = named === undefined ? undefined : (i: number) => `${named}-c${i}`,
  } = options;
  const rate = options.exchangeRate ? { exchangeRate: options.exchangeRate, supportExchangeRate: true } : {};
  const project = await expectStatus(t.request('POST', '/projects', { key, body: { name, ...rate } }), 201);
  const asset = await expectStatus(t.request('POST', '/assets', { key, body: { name: assetName, symbol, fractions, projectId: project.id } }), 201);
  const wallet = async (type: 'system' | 'customer', address: string | undefined): Promise<WalletRef> => {
    const body = await expectStatus(t.request('POST', `/wallets/create/${type}`, { key, body: { projectId: project.id, ...(address === undefined ? {} : { address }) } }), 201);
    return { id: body.id, address: body.address };
  };
  const system = await wallet('system', options.systemAddress);
  const wallets: WalletRef[] = [];
  for (let i = 0; i < customers; i++) wallets.push(await wallet('customer', customerAddress?.(i)));
  let seedId: string | null = null;
  if (Number(systemBalance) > 0) {
    const seeded = await expectStatus(
      t.request('POST', '/transactions/seed', { key, body: { amount: Number(systemBalance), currency: symbol, projectId: project.id, to: system.id } }),
      201,
    );
    seedId = seeded.transaction[0].id;
  }
  const funding: FundedProject['funding'] = [];
  if (fund > 0) {
    for (const w of wallets) {
      const sent = await expectStatus(t.request('POST', '/transactions', { key, body: { amount: fund, currency: symbol, projectId: project.id, from: system.id, to: w.id } }), 201);
      funding.push({ id: sent.transaction.id, from: system.id, to: w.id });
    }
  }
  return { key, projectId: project.id, assetId: asset.id, symbol, fractions, system, customers: wallets, seedId, funding };
}

/** Moves `amount` major units between two wallets of the project (201 expected). */
export async function transfer(t: TestApp, p: FundedProject, from: string, to: string, amount: number, currency = p.symbol): Promise<any> {
  return expectStatus(t.request('POST', '/transactions', { key: p.key, body: { amount, currency, from, to, projectId: p.projectId } }), 201);
}

/** Mints `amount` into a system wallet of the project (201 expected). */
export async function seed(t: TestApp, p: FundedProject, to: string, amount: number, currency = p.symbol): Promise<any> {
  return expectStatus(t.request('POST', '/transactions/seed', { key: p.key, body: { amount, currency, to, projectId: p.projectId } }), 201);
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

const recorders = new WeakMap<object, string[][]>();
/** Statements of background jobs, which may run at any moment of a test. */
const BACKGROUND = /^\s*(INSERT INTO api_call_counts|SELECT \* FROM (?:holds|lots)_sweep\(|SELECT ledger_sequence_events\(\$1\) AS n|\/\* webhook-worker \*\/)/i;

/**
 * Records the SQL every pooled client sends (ORM and raw alike, whenever the client was
 * connected), leaving out background work (the call counter's flushes, the lot sweeper, the event sequencer's tick, the webhook delivery worker). For
 * statement-count tests.
 */
export function recordStatements(t: TestApp): { reset(): void; readonly statements: string[] } {
  const statements: string[] = [];
  let sinks = recorders.get(t.db.pool);
  if (!sinks) {
    const all: string[][] = [];
    sinks = all;
    recorders.set(t.db.pool, all);
    const instrumented = new WeakSet<object>();
    t.db.pool.on('acquire', (client: any) => {
      if (instrumented.has(client)) return;
      instrumented.add(client);
      const query = client.query.bind(client);
      client.query = (...args: any[]) => {
        const text: string = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? '');
        if (!BACKGROUND.test(text)) for (const sink of all) sink.push(text);
        return query(...args);
      };
    });
  }
  sinks.push(statements);
  return { reset: () => void statements.splice(0), statements };
}

/** A transfer between two wallets of `p` as the posting routines take it (minor units, no request key). */
export const transferLeg = (p: Pick<FundedProject, 'projectId' | 'assetId'>, from: string, to: string, amount: bigint): PostingLeg => ({
  kind: 'transfer',
  projectId: p.projectId,
  assetId: p.assetId,
  fromWalletId: from,
  toWalletId: to,
  amount,
  requestKey: null,
});
