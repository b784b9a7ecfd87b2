import { z } from 'zod';

/**
 * The transaction of the contract (CONTRACT §3). Its presenter stays in the domain because the
 * journal's hashes (CONTRACT §22) take their text from it (src/domain/ledger/transaction-json.ts);
 * this module adds the schema that documents it.
 */
export { transactionJson, type TransactionJson } from '../domain/ledger/transaction-json.js';

export const TransactionBody = z
  .object({
    id: z.string(),
    amount: z.number(),
    currency: z.string(),
    balance: z.number(),
    from: z.string(),
    to: z.string(),
    date: z.string(),
    reverses: z.string().nullable().meta({ description: 'The original transaction this one reverses, or null.' }),
    reversedAmount: z.number().meta({ description: 'Major units reversed so far (0 for none).' }),
    reference: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Transaction' });
