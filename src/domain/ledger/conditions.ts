import { z } from 'zod';
import type { Principal } from '../auth/api-key.service.js';
import { notFound, validationError } from '../errors.js';
import { ExactNumber, plainDecimal, toMinorSigned } from '../money.js';
import { parseInput } from '../shared/validation.js';
import { CurrencyRule, WalletRefRule } from './ledger.rules.js';
import { CONDITION_FIELDS, CONDITION_OPS, MAX_CONDITIONS, type AssetRef, type PostingCondition } from './ledger.types.js';
import type { PostingRepository } from './posting.repository.js';

/**
 * Posting conditions (CONTRACT §28): "post only if, afterwards, this party's balance or available
 * funds compare so with this value". Checked and resolved here; judged by the posting routine
 * (ledger_conditions.sql), atomically with the posting, after every other rule.
 */
export interface ConditionInput {
  wallet: string;
  currency: string;
  field: string;
  op: string;
  value: number | string | ExactNumber;
}

/** A signed number of major units (balances go below zero with a credit line): a JSON number, or an ExactNumber passed on as its exact text (REST). */
export const SignedNumberRule = z.union([
  z.number().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  z.custom<ExactNumber>((value) => value instanceof ExactNumber, { abort: true }).transform((value, ctx) => plainDecimal(value.text) ?? (ctx.addIssue({ code: 'custom', message: 'has too many digits' }), z.NEVER)),
]);
SignedNumberRule._zod.toJSONSchema = () => ({ type: 'number', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
/** The same, or a decimal text (a GraphQL Decimal arrives as text). */
const SignedAmountRule = z.union([SignedNumberRule, z.string().regex(/^-?\d+(?:\.\d+)?$/, 'must be a decimal number').max(400)]);

const conditionRule = <V extends z.ZodType<number | string>>(value: V) =>
  z.strictObject({
    wallet: WalletRefRule.meta({ description: 'A party of the posting: its id or address' }),
    currency: CurrencyRule.meta({ description: 'An asset symbol of the project (a currency the posting does not move: its unchanged values)' }),
    field: z.enum(CONDITION_FIELDS).meta({ description: '`balance` or `available` (balance − held + creditLimit), after the posting' }),
    op: z.enum(CONDITION_OPS),
    value: value.meta({ description: 'Major units; may be below zero' }),
  });
/** What the services accept. */
export const ConditionsRule = z.array(conditionRule(SignedAmountRule)).max(MAX_CONDITIONS);
/** REST's JSON bodies: the same with numbers only, as every amount there. */
export const ConditionsBodyRule = z.array(conditionRule(SignedNumberRule).meta({ id: 'Condition' })).max(MAX_CONDITIONS);

/** The shape of a request's conditions (400), before anything is looked up; `field` prefixes names (`transfers.3.`). */
export function checkConditions(conditions: unknown, field = ''): z.infer<typeof ConditionsRule> {
  if (conditions === undefined || conditions === null) return [];
  return parseInput(ConditionsRule, conditions, `${field}conditions`, { nested: true });
}

/** A party of the posting: its id and address. */
export interface Party {
  id: string;
  address: string;
}

/**
 * Each condition's wallet among the parties (else 400: a condition on another wallet would judge
 * a balance the posting does not lock) and its currency (the posting's own, or one more look-up;
 * missing: 404); values in minor units of their asset.
 */
export async function resolveConditions(
  repository: PostingRepository,
  principal: Principal,
  projectId: number,
  conditions: z.infer<typeof ConditionsRule>,
  parties: readonly (Party | null)[],
  asset: AssetRef,
  field = '',
): Promise<PostingCondition[] | undefined> {
  if (conditions.length === 0) return undefined;
  const resolved: PostingCondition[] = [];
  for (const [index, condition] of conditions.entries()) {
    const name = `${field}conditions.${index}`;
    const party = parties.find((p) => p !== null && (p.id === condition.wallet.toLowerCase() || p.address === condition.wallet));
    if (!party) throw validationError(`${name}.wallet`, 'must be a party of the posting (its sender or receiver)');
    const currency = condition.currency === asset.symbol ? asset : await currencyOf(repository, principal, projectId, condition.currency, party.id);
    resolved.push({ walletId: party.id, assetId: currency.id, fractions: currency.fractions, field: condition.field, op: condition.op, value: toMinorSigned(condition.value, currency.fractions, `${name}.value`) });
  }
  return resolved;
}

async function currencyOf(repository: PostingRepository, principal: Principal, projectId: number, symbol: string, walletId: string): Promise<AssetRef> {
  const context = await repository.resolvePosting(principal.ownerId, projectId, symbol, null, walletId);
  if (!context?.asset) throw notFound('currency', symbol);
  return context.asset;
}
