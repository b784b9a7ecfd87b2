import type { PostingLeg } from '../../src/domain/ledger/ledger.types.js';
import type { HttpResult, TestApp } from './test-app.js';

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Well-formed, never issued. */
export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/** Awaits a request and insists on its status (the body is returned for chaining). */
export async function expectStatus<T = any>(request: Promise<HttpResult<T>>, status: number): Promise<T> {
  const res = await request;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
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
}

export interface FundedProjectOptions {
  name?: string;
  symbol?: string;
  fractions?: number;
  customers?: number;
  /** Seeded into the system wallet from @mint, in major units; '0' seeds nothing. */
  systemBalance?: string | number;
}

/**
 * A project with one asset, one system wallet (seeded with `systemBalance`) and `customers`
 * customer wallets, all through the real HTTP API, for the owner of `key`.
 */
export async function fundedProject(t: TestApp, key: string, options: FundedProjectOptions = {}): Promise<FundedProject> {
  const { name = 'Funded project', symbol = 'PTS', fractions = 2, customers = 2, systemBalance = '1000' } = options;
  const project = await expectStatus(t.request('POST', '/projects', { key, body: { name } }), 201);
  const asset = await expectStatus(t.request('POST', '/assets', { key, body: { name: `${symbol} asset`, symbol, fractions, projectId: project.id } }), 201);
  const system = await expectStatus(t.request('POST', '/wallets/create/system', { key, body: { projectId: project.id } }), 201);
  const wallets: WalletRef[] = [];
  for (let i = 0; i < customers; i++) {
    const wallet = await expectStatus(t.request('POST', '/wallets/create/customer', { key, body: { projectId: project.id } }), 201);
    wallets.push({ id: wallet.id, address: wallet.address });
  }
  if (Number(systemBalance) > 0) {
    await expectStatus(
      t.request('POST', '/transactions/seed', { key, body: { amount: Number(systemBalance), currency: symbol, projectId: project.id, to: system.id } }),
      201,
    );
  }
  return {
    key,
    projectId: project.id,
    assetId: asset.id,
    symbol,
    fractions,
    system: { id: system.id, address: system.address },
    customers: wallets,
  };
}

/** Moves `amount` major units between two wallets of the project (201 expected). */
export async function transfer(t: TestApp, p: FundedProject, from: string, to: string, amount: number, currency = p.symbol): Promise<any> {
  return expectStatus(t.request('POST', '/transactions', { key: p.key, body: { amount, currency, from, to, projectId: p.projectId } }), 201);
}

/** Mints `amount` into a system wallet of the project (201 expected). */
export async function seed(t: TestApp, p: FundedProject, to: string, amount: number, currency = p.symbol): Promise<any> {
  return expectStatus(t.request('POST', '/transactions/seed', { key: p.key, body: { amount, currency, to, projectId: p.projectId } }), 201);
}

const recorders = new WeakMap<object, string[][]>();
/** Statements of background jobs, which may run at any moment of a test. */
const BACKGROUND = /^\s*(INSERT INTO api_call_counts|SELECT \* FROM lots_sweep\(|SELECT ledger_sequence_events\(\$1\) AS n|\/\* webhook-worker \*\/)/i;

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
