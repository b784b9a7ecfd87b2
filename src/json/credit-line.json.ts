import { z } from 'zod';
import type { CreditLineView } from '../domain/credit-lines/credit-line.types.js';
import { toMajor } from '../domain/money.js';

/** A wallet's credit line in one currency (CONTRACT §28): major units. */
export const CreditLineBody = z
  .object({
    walletId: z.string(),
    currency: z.string(),
    limit: z.number().meta({ description: 'How far below zero the wallet may go in this currency (0: no line)' }),
  })
  .meta({ id: 'CreditLine' });

export function creditLineJson(line: CreditLineView): z.infer<typeof CreditLineBody> {
  return { walletId: line.walletId, currency: line.currency, limit: toMajor(line.limit, line.fractions) };
}
