import type { Api } from './http.js';
import { minorOf } from './money.js';

export interface WalletInfo {
  id: string;
  address: string;
  type: 'customer' | 'system';
}

export interface Bank {
  projectId: number;
  currency: string;
  fractions: number;
  system: WalletInfo;
  customers: WalletInfo[];
  /** Every seed posted (minor units), acknowledged. */
  seeds: { id: string; amount: bigint }[];
}

function expectStatus(res: { status: number; body: unknown }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * A bank over the REST interface: one project, one 2-fraction currency, one system wallet
 * seeded with `seedMinor` and `customers` customer wallets, each funded from the system wallet
 * with `fundMinor` (acknowledged transfers, returned so the checks can count them).
 */
export async function provisionBank(api: Api, options: { customers: number; seedMinor: bigint; fundMinor: bigint; name?: string }) {
  const fractions = 2;
  const project = await api.post('/projects', { name: options.name ?? 'bank' });
  expectStatus(project, 201, 'POST /projects');
  const projectId = project.body.id as number;
  const asset = await api.post('/assets', { name: 'Bank dollar', symbol: 'BUSD', fractions, projectId });
  expectStatus(asset, 201, 'POST /assets');
  const createWallet = async (type: 'customer' | 'system', address: string): Promise<WalletInfo> => {
    const res = await api.post(`/wallets/create/${type}`, { projectId, address });
    expectStatus(res, 201, `POST /wallets/create/${type}`);
    return { id: res.body.id, address: res.body.address, type };
  };
  const system = await createWallet('system', 'vault');
  const customers: WalletInfo[] = [];
  for (let i = 0; i < options.customers; i++) customers.push(await createWallet('customer', `customer-${String(i).padStart(3, '0')}`));
  const bank: Bank = { projectId, currency: 'BUSD', fractions, system, customers, seeds: [] };
  const seed = await api.post('/transactions/seed', { amount: majorText(options.seedMinor, fractions), currency: bank.currency, projectId, to: system.id });
  expectStatus(seed, 201, 'POST /transactions/seed');
  bank.seeds.push({ id: seed.body.transaction[0].id, amount: options.seedMinor });
  const funding: Transfer[] = [];
  for (const customer of customers) {
    const res = await api.post('/transactions', { amount: majorText(options.fundMinor, fractions), currency: bank.currency, projectId, from: system.id, to: customer.id });
    expectStatus(res, 201, 'fan-out transfer');
    funding.push({ id: res.body.transaction.id, from: system.id, to: customer.id, amount: options.fundMinor });
  }
  return { bank, funding };
}

export interface Transfer {
  id: string;
  from: string;
  to: string;
  amount: bigint;
}

/** A JSON number of major units for `minor` (exact: it goes through decimal text). */
export function majorText(minor: bigint, fractions: number): number {
  const digits = minor.toString().padStart(fractions + 1, '0');
  const value = Number(`${digits.slice(0, digits.length - fractions)}.${digits.slice(digits.length - fractions)}`);
  if (minorOf(value, fractions) !== minor) throw new Error(`cannot send ${minor} exactly`);
  return value;
}
