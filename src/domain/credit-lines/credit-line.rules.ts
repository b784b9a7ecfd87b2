import { z } from 'zod';
import { CurrencyRule } from '../ledger/ledger.rules.js';
import { AmountRule } from '../money.js';
import { ProjectIdRule } from '../shared/ids.js';

export const SetCreditLineRules = z.object({
  projectId: ProjectIdRule,
  currency: CurrencyRule,
  // ≥ 0 (0 removes the line); a GraphQL Decimal arrives as text: toMinorSigned checks it against the asset's fractions
  limit: z.union([AmountRule, z.literal(0), z.string().min(1).max(400)]),
});
