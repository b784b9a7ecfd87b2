import { z } from 'zod';
import type { BalanceAsOfRow, BalanceRow } from '../domain/ledger/ledger.types.js';
import { toMajor } from '../domain/money.js';

/** A wallet's balance in one currency (CONTRACT §3): major units. */
export const BalanceBody = z
  .object({
    account: z.string(),
    currency: z.string(),
    balance: z.number().meta({ description: 'The posted balance (below zero with a credit line in use).' }),
    held: z.number().meta({ description: "Sum of the wallet's pending, unexpired holds as sender." }),
    available: z.number().meta({ description: 'balance − held + creditLimit: what transfers, holds and reversals may spend (below zero when a credit line was lowered below its use).' }),
    creditLimit: z.number().meta({ description: 'The credit line in this currency (0 without one): the balance may go down to −creditLimit.' }),
    incoming: z.number().meta({ description: 'Sum of the pending holds to the wallet (maturing or not): not spendable until captured; balance, held and available do not count it.' }),
  })
  .meta({ id: 'Balance' });
/** A balance as of a time (CONTRACT §14): the posted balance only (held and available are omitted). */
export const BalanceAsOfBody = z.object({ account: z.string(), currency: z.string(), balance: z.number() }).meta({ id: 'BalanceAsOf' });

export interface BalanceJson {
  account: string;
  currency: string;
  balance: number;
  held: number;
  available: number;
  creditLimit: number;
  incoming: number;
}

export type BalanceAsOfJson = Pick<BalanceJson, 'account' | 'currency' | 'balance'>;

export function balanceJson(row: BalanceRow): BalanceJson {
  return {
    account: row.address,
    currency: row.symbol,
    balance: toMajor(row.amount, row.fractions),
    held: toMajor(row.held, row.fractions),
    available: toMajor(row.amount - row.held + row.creditLimit, row.fractions),
    creditLimit: toMajor(row.creditLimit, row.fractions),
    incoming: toMajor(row.incoming, row.fractions),
  };
}

/** A balance as of a time (CONTRACT §14): the posted balance, without what describes the present (holds). */
export function balanceAsOfJson(row: BalanceAsOfRow): BalanceAsOfJson {
  return { account: row.address, currency: row.symbol, balance: toMajor(row.amount, row.fractions) };
}
