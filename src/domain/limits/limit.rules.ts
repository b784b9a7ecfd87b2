import { z } from 'zod';
import { LedgerError } from '../errors.js';
import { CurrencyRule, WalletRefRule } from '../ledger/ledger.rules.js';
import { AmountRule } from '../money.js';
import { ProjectIdRule } from '../shared/ids.js';
import { LIMIT_DIRECTIONS } from './limit.types.js';

/** A window from one minute to 31 days (CONTRACT §19). */
export const WindowSecondsRule = z.number().int().min(60).max(2_678_400);
export const DirectionRule = z.enum(LIMIT_DIRECTIONS);

export const CreateLimitRules = z.object({
  projectId: ProjectIdRule,
  currency: CurrencyRule,
  direction: DirectionRule,
  // a GraphQL Decimal arrives as text; toMinor checks it against the asset's fractions
  amount: z.union([AmountRule, z.string().min(1).max(400)]),
  windowSeconds: WindowSecondsRule,
  walletId: WalletRefRule.nullish(),
});

/** Limits one project may have: every posting in a limited currency reads them (limits_applying.sql). */
export const MAX_LIMITS_PER_PROJECT = 50;

export const limitQuotaExceeded = (): LedgerError =>
  new LedgerError('quota_exceeded', `a project has at most ${MAX_LIMITS_PER_PROJECT} limits`, { quota: 'limits', limit: MAX_LIMITS_PER_PROJECT });
