import type { Api } from './http.js';
import { fundedProject } from '../../support/fixtures.js';
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

/**
 * A bank over the REST interface (test/support/fixtures.ts's fundedProject, seen in minor units):
 * one project, one 2-fraction currency, one system wallet seeded with `seedMinor` and `customers`
 * customer wallets, each funded from the system wallet with `fundMinor` (acknowledged transfers,
 * returned so the checks can count them).
 */
export async function provisionBank(api: Api, options: { customers: number; seedMinor: bigint; fundMinor: bigint; name?: string }) {
  const fractions = 2;
  const p = await fundedProject(api, api.key!, {
    name: options.name ?? 'bank',
    assetName: 'Bank dollar',
    symbol: 'BUSD',
    fractions,
    customers: options.customers,
    systemAddress: 'vault',
    customerAddress: (i) => `customer-${String(i).padStart(3, '0')}`,
    systemBalance: majorText(options.seedMinor, fractions),
    fund: majorText(options.fundMinor, fractions),
  });
  const system: WalletInfo = { ...p.system, type: 'system' };
  const customers: WalletInfo[] = p.customers.map((c) => ({ ...c, type: 'customer' }));
  const bank: Bank = { projectId: p.projectId, currency: p.symbol, fractions, system, customers, seeds: [{ id: p.seedId!, amount: options.seedMinor }] };
  const funding: Transfer[] = p.funding.map((f) => ({ ...f, amount: options.fundMinor }));
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
