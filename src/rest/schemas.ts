import { z } from 'zod';
import { CurrencyRule, PostingMetadataRule, ReferenceRule, WalletRefRule } from '../domain/ledger/ledger.rules.js';
import { AmountRule } from '../domain/money.js';
import { ConditionsBodyRule } from '../domain/ledger/conditions.js';
import { AS_OF_FORMAT, AsOfRule } from '../domain/ledger/as-of.rules.js';
import { parseInstant } from '../domain/shared/instant.js';
import { MAX_PROJECT_ID, ProjectIdRule, UuidRule } from '../domain/shared/ids.js';

/** Shared request/response pieces; every REST schema is strict (unknown fields → 400). */
export const ErrorBody = z
  .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) })
  .meta({ id: 'Error' });

export const PlanBody = z
  .object({
    user_id: z.string(),
    plan_code: z.string(),
    subscription_code: z.string(),
    subscription_status: z.string(),
    projects: z.number().int(),
    assets_per_project: z.number().int(),
    customer_wallets: z.number().int(),
    system_wallets: z.number().int(),
    api_calls_per_day: z.number().int(),
    advanced_analytics: z.boolean(),
    custom_branding: z.boolean(),
    priority_support: z.boolean(),
  })
  .meta({ id: 'Plan' });

export const HealthBody = z.object({ status: z.string() });

/** Query strings arrive as text: integers must be plain digits ("1.5", "1e3", "" → 400). */
export const queryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** `after` of a page over a `seq` (events, journal entries): the items after that seq, from the first by default. */
export const afterSeq = (items: string) =>
  z
    .string()
    .regex(/^\d{1,16}$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
    .default(0)
    .meta({ description: `A \`seq\`: the ${items} after it (default 0, from the first).` });

export const ProjectIdQuery = queryInt(1, MAX_PROJECT_ID);

/**
 * `asOf` (CONTRACT §14). In a query string an unescaped `+` arrives as a space, so a space where
 * an offset's sign belongs is read back as the `+` the client wrote.
 */
export const AsOfQuery = z
  .string()
  .transform((text) => text.replace(/ (?=\d{2}(?::?\d{2})?$)/, '+'))
  .pipe(AsOfRule);

/**
 * An instant in a query string that may lie in the future (a search's or an export's `until`,
 * analytics' range: CONTRACT §21, §23); the `+` of its offset read back as `asOf`'s is.
 */
export const InstantQuery = z
  .string()
  .transform((text, ctx) => parseInstant(text.replace(/ (?=\d{2}(?::?\d{2})?$)/, '+')) ?? (ctx.addIssue({ code: 'custom', message: AS_OF_FORMAT }), z.NEVER));
/** `page` ≥ 1 (CONTRACT §7), up to the largest 32-bit integer; a page past the data is empty. */
export const MAX_PAGE = 2_147_483_647;
export const PageQuery = { page: queryInt(1, MAX_PAGE).default(1), limit: queryInt(1, 100).default(20) };

/** The domain's own rules, so REST validates exactly what the services accept. */
export const ProjectId = ProjectIdRule;
export const Uuid = UuidRule;
/** A wallet id or address, and a currency symbol: the ledger's own rules. */
export const WalletRef = WalletRefRule;
export const Symbol = CurrencyRule;
/**
 * Major units: a JSON number, or an ExactNumber when the double would alter it (17 significant
 * digits), passed on as its exact text; exactness against the asset's fractions is checked once
 * the asset is known (money.ts). OpenAPI documents it as a number.
 */
export const Amount = AmountRule;

/** Optional on postings and holds (CONTRACT §13). */
export const Reference = ReferenceRule;
export const Metadata = PostingMetadataRule;

/** A posting's conditions (CONTRACT §28): the domain's own rule, at most 10, judged after the posting. */
export const Conditions = ConditionsBodyRule.meta({
  description: 'At most 10, judged once the posting is done and after every other check, in order: the first that does not hold refuses it (409 condition_failed, details {index, actual}) and nothing is posted',
});
