import { z } from 'zod';
import { validationError } from '../errors.js';
import { decimalParts, plainDecimal } from '../money.js';
import type { MetadataPair } from './transaction-search.types.js';

/** An asset has at most 18 fractions: a bound without currency may carry that many decimals. */
const MAX_FRACTIONS = 18;
export const MAX_METADATA_PAIRS = 16;

export const SearchLimitRule = z.number().int().min(1).max(100);
export const MetadataKeyRule = z.string().min(1).max(128);
export const MetadataValueRule = z.string().max(1024);
/** A prefix of a reference: any text of up to 128 characters, matched literally (no wildcard). */
export const ReferencePrefixRule = z.string().min(1).max(128);

/**
 * A bound in major units (`minAmount`, `maxAmount`): a non-negative plain decimal with at most
 * `fractions` decimals (the currency's when one is given, else 18), as exact decimal text.
 */
export function amountBound(field: string, text: string, fractions: number | null): string {
  const trimmed = text.trim();
  const parts = /^\d+(?:\.\d+)?$/.test(trimmed) ? decimalParts(trimmed) : null;
  const plain = parts ? plainDecimal(trimmed, 64) : null;
  if (!parts || plain === null) throw validationError(field, 'must be a non-negative decimal number in major units');
  const allowed = fractions ?? MAX_FRACTIONS;
  if (-parts.exponent > allowed) throw validationError(field, `has more than ${allowed} decimal places`);
  return plain;
}

/**
 * The JSON objects a row's metadata must contain (any one) for `key` to match `value`: the
 * string itself, or the number or boolean whose JSON text `value` is.
 */
export function metadataAlternatives({ key, value }: MetadataPair): string[] {
  const alternatives = [JSON.stringify({ [key]: value })];
  if (value === 'true' || value === 'false') alternatives.push(`{${JSON.stringify(key)}:${value}}`);
  else if (/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(value) && value.length <= 64) alternatives.push(`{${JSON.stringify(key)}:${value}}`);
  return alternatives;
}

/** `LIKE` pattern of a literal prefix: `\`, `%` and `_` escaped (the default escape character). */
export const likePrefix = (prefix: string): string => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The opaque keyset position after a row: its date (ms) and its `seq`, base64url. */
export const encodeAfter = (date: Date, seq: string): string => Buffer.from(`${date.getTime()}:${seq}`).toString('base64url');

/**
 * A cursor's date is a transaction's date, so it lies within the years 1 to 9999; one outside them
 * (PostgreSQL refuses dates before 4713 BC, JavaScript prints years past 9999 in a form it
 * does not read back) is no position in this list either (CONTRACT §21 clarification: 400, not 500).
 */
const FIRST_DATE_MS = Date.parse('0001-01-01T00:00:00.000Z');
const LAST_DATE_MS = Date.parse('9999-12-31T23:59:59.999Z');

export function decodeAfter(after: string): { date: Date; seq: string } {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(after) ? Buffer.from(after, 'base64url').toString() : '';
  const match = /^(-?\d{1,15}):(\d{1,18})$/.exec(text);
  const ms = match ? Number(match[1]) : NaN;
  if (!match || !(ms >= FIRST_DATE_MS && ms <= LAST_DATE_MS)) throw validationError('after', 'is not a position in this list (use the nextAfter of the previous page)');
  return { date: new Date(ms), seq: match[2] };
}
