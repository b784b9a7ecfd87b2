import { z } from 'zod';
import { LedgerError, validationError } from './errors.js';

/**
 * The only place where amounts change representation. Inside the service every amount is a
 * bigint of minor units; the API speaks major units (JSON numbers), and an asset's
 * `fractions` says how many minor units make one major unit (10^fractions).
 */
export const MAX_MINOR_UNITS = BigInt(Number.MAX_SAFE_INTEGER); // 2^53 - 1

/**
 * A JSON number whose source text denotes another decimal value than the double it parses to:
 * 17 significant digits (82241598.62827704 parses to …703), an exponent out of range (1e400), …
 * The body parser (src/http/body.ts) puts one in place of such a number, so that no amount is
 * ever silently altered: amount fields accept it and read its exact text (toMinor, convertFiat,
 * AmountRule), while every other numeric field refuses it (it is not a `number`: 400).
 * `text` is its only own property (an idempotency fingerprint tells two such amounts apart by
 * their digits), and JSON.stringify prints the text as sent (JSON.rawJSON): a stored webhook
 * event or metadata keeps every digit.
 */
export class ExactNumber {
  /** The number as sent, in JSON number grammar, e.g. "82241598.62827704". */
  readonly text: string;

  constructor(text: string) {
    if (!JSON_NUMBER.test(text)) throw new TypeError(`not a JSON number: ${text.slice(0, 40)}`);
    this.text = text;
  }

  /** The parsed double when it stands for its source text, else an ExactNumber holding that text. */
  static from(value: number, source: string): number | ExactNumber {
    return sameDecimal(source, value) ? value : new ExactNumber(source);
  }

  /** The value, exactly (digits × 10^exponent). */
  get parts(): DecimalParts {
    return decimalParts(this.text)!;
  }

  toString(): string {
    return this.text;
  }

  toJSON(): unknown {
    return (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(this.text);
  }
}

/** A decimal number as ±digits × 10^exponent; `digits` has no leading or trailing zero ('' for zero). */
export interface DecimalParts {
  negative: boolean;
  digits: string;
  exponent: number;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
const PLAIN_DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * The exact value a number text denotes (JSON or GraphQL grammar, leading zeros tolerated), or
 * null when it is not one. Linear in the text's length (no backtracking regex on long runs).
 */
export function decimalParts(text: string): DecimalParts | null {
  const match = NUMBER_TEXT.exec(text);
  if (!match) return null;
  const [, sign, whole, decimals = '', exponentText = '0'] = match;
  const all = whole + decimals;
  let start = 0;
  while (start < all.length && all.charCodeAt(start) === 48) start++;
  let end = all.length;
  while (end > start && all.charCodeAt(end - 1) === 48) end--;
  if (start === end) return { negative: false, digits: '', exponent: 0 };
  // an absurd exponent text becomes ±Infinity: still ordered correctly against every bound below
  return { negative: sign === '-', digits: all.slice(start, end), exponent: Number(exponentText) - decimals.length + (all.length - end) };
}

/** One text per value ("1.50", "15e-1" and "0.15E1" are all "15e-1"; zero is "0"), or null. */
export function canonicalDecimal(text: string): string | null {
  const parts = decimalParts(text);
  if (!parts) return null;
  return parts.digits === '' ? '0' : `${parts.negative ? '-' : ''}${parts.digits}e${parts.exponent}`;
}

/**
 * Whether a JSON number's source text denotes the same decimal value as the shortest decimal
 * text of the double it parsed to — the text money.ts reads from a number. False for
 * 82241598.62827704 (the double prints …703), 1e400 (Infinity) and 1e-400 (0).
 */
export function sameDecimal(source: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  // up to 15 significant digits and no exponent: every such decimal survives the double
  if (source.length <= 15 && !/[eE]/.test(source)) return true;
  const canonical = canonicalDecimal(source);
  return canonical !== null && canonical === canonicalDecimal(String(value));
}

/**
 * Plain decimal text of a number text, exactly ("8.2241598628277040e7" → "82241598.62827704"),
 * or null when it is not a number or its expansion would be longer than `maxLength` characters
 * (1e999999999 must not allocate a gigabyte).
 */
export function plainDecimal(text: string, maxLength = 400): string | null {
  const parts = decimalParts(text);
  if (!parts) return null;
  const { negative, digits, exponent } = parts;
  if (digits === '') return '0';
  const point = digits.length + exponent;
  const length = exponent >= 0 ? point : point <= 0 ? 2 - point + digits.length : digits.length + 1;
  if (!(length <= maxLength)) return null;
  const body = exponent >= 0 ? digits + '0'.repeat(exponent) : point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + body;
}

/** Digits of MAX_MINOR_UNITS (2^53-1 = 9007199254740991). */
const MAX_MINOR_DIGITS = MAX_MINOR_UNITS.toString().length;

/**
 * Major units to minor units, refusing anything that is not exactly representable: more decimals
 * than `fractions`, zero or negative, or more than 2^53-1 minor units. A number is read through
 * its shortest decimal text, so 1.005 stays 1.005 (three decimals) and never becomes 1.00499999;
 * an ExactNumber through the text that was sent (82241598.62827704 stays …704); a string must be
 * a plain decimal ("12.50").
 */
export function toMinor(amount: number | string | ExactNumber, fractions: number, field = 'amount'): bigint {
  const parts = amountParts(amount);
  if (!parts || parts.negative) throw invalid(field, 'must be a positive decimal number');
  if (parts.digits === '') throw invalid(field, 'must be greater than zero');
  if (-parts.exponent > fractions) throw invalid(field, `has more than ${fractions} decimal places`, { fractions });
  const shift = parts.exponent + fractions; // ≥ 0 here
  if (parts.digits.length + shift > MAX_MINOR_DIGITS) throw invalid(field, 'is larger than 2^53-1 minor units');
  const minor = BigInt(parts.digits + '0'.repeat(shift));
  if (minor > MAX_MINOR_UNITS) throw invalid(field, 'is larger than 2^53-1 minor units');
  return minor;
}

/**
 * Major units to minor units where zero and signs are meaningful (a credit line's limit, a
 * condition's value: balances may be below zero, CONTRACT §28), with toMinor's other refusals:
 * more decimals than `fractions`, more than 2^53-1 minor units either way.
 */
export function toMinorSigned(amount: number | string | ExactNumber, fractions: number, field = 'amount'): bigint {
  // a string is a plain decimal, here with an optional minus sign ("-12.50")
  if (typeof amount === 'string' && /^\s*-\d/.test(amount)) return -toMinorSigned(amount.trim().slice(1), fractions, field);
  const parts = amountParts(amount);
  if (!parts) throw invalid(field, 'must be a decimal number');
  if (parts.digits === '') return 0n;
  if (-parts.exponent > fractions) throw invalid(field, `has more than ${fractions} decimal places`, { fractions });
  const shift = parts.exponent + fractions;
  if (parts.digits.length + shift > MAX_MINOR_DIGITS) throw invalid(field, 'is larger than 2^53-1 minor units');
  const minor = BigInt(parts.digits + '0'.repeat(shift));
  if (minor > MAX_MINOR_UNITS) throw invalid(field, 'is larger than 2^53-1 minor units');
  return parts.negative ? -minor : minor;
}

function amountParts(amount: number | string | ExactNumber): DecimalParts | null {
  if (amount instanceof ExactNumber) return amount.parts;
  if (typeof amount === 'number') return Number.isFinite(amount) ? decimalParts(String(amount)) : null;
  const text = amount.trim();
  return PLAIN_DECIMAL.test(text) ? decimalParts(text) : null;
}

/**
 * Minor units to a JSON number of major units (REST). Exact — the double's shortest text is the
 * decimal itself — while the value is at most 2^52 minor units (4,503,599,627,370,496; with
 * fractions 0, up to 2^53): there the doubles are at most 10^-fractions apart. Above that, with
 * fractions > 0, the nearest double is printed and the last digit may differ: 9007199254740991
 * minor units of a 2-fraction asset (a valid amount) print as 90071992547409.9, not .91; balances
 * go up to 2^63-1 minor units. The stored value is exact; GraphQL prints it exactly (a string).
 */
export function toMajor(minor: bigint | string | number, fractions: number): number {
  return Number(minorToDecimalString(BigInt(minor), fractions));
}

/**
 * The same conversion in SQL, for reads whose JSON PostgreSQL builds (src/graphql/sql-plan):
 * `fractions` decimal places by exact numeric multiplication ('1e-18'::numeric is exactly
 * 10^-18), then trailing zeros dropped — "12.5", "0", "9.223372036854775807" as above.
 */
export const minorToDecimalSql = (minor: string, fractions: string): string => `trim_scale((${minor})::numeric * ('1e-' || (${fractions}))::numeric)::text`;

export function minorToDecimalString(minor: bigint, fractions: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(fractions + 1, '0');
  const whole = digits.slice(0, digits.length - fractions);
  const decimals = fractions ? digits.slice(digits.length - fractions).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${decimals ? `.${decimals}` : ''}`;
}

/** Minor units as major units with exactly `fractions` decimals ("12.50"; "12" when `fractions` is 0): the journal's amount (CONTRACT §22). */
export function minorToFixedString(minor: bigint, fractions: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(fractions + 1, '0');
  const whole = digits.slice(0, digits.length - fractions);
  return `${negative ? '-' : ''}${whole}${fractions ? `.${digits.slice(digits.length - fractions)}` : ''}`;
}

/**
 * fiatAmount × exchangeRate, rounded down to `fractions` decimals, as minor units — in exact
 * decimal arithmetic (both operands as scaled bigints). An ExactNumber fiatAmount counts with
 * the digits that were sent.
 */
export function convertFiat(fiatAmount: number | string | ExactNumber, exchangeRate: string, fractions: number): bigint {
  const fiat = amountParts(fiatAmount);
  if (!fiat || fiat.negative) throw invalid('values.fiatAmount', 'must be a positive decimal number');
  const rateText = exchangeRate.trim();
  const rate = PLAIN_DECIMAL.test(rateText) ? decimalParts(rateText) : null;
  if (!rate) throw invalid('exchangeRate', 'must be a positive decimal number');
  let minor = 0n;
  if (fiat.digits !== '' && rate.digits !== '') {
    const units = BigInt(fiat.digits) * BigInt(rate.digits);
    const shift = fiat.exponent + rate.exponent + fractions; // product × 10^fractions = units × 10^shift
    const magnitude = units.toString().length + shift; // digits before the point of that product
    if (magnitude > MAX_MINOR_DIGITS) throw invalid('values.fiatAmount', 'converts to more than 2^53-1 minor units');
    if (magnitude > 0) minor = shift >= 0 ? units * 10n ** BigInt(shift) : units / 10n ** BigInt(-shift);
  }
  if (minor <= 0n) throw invalid('values.fiatAmount', 'converts to zero points');
  if (minor > MAX_MINOR_UNITS) throw invalid('values.fiatAmount', 'converts to more than 2^53-1 minor units');
  return minor;
}

function invalid(field: string, problem: string, extra: Record<string, unknown> = {}): LedgerError {
  const error = validationError(field, problem);
  return new LedgerError('validation_error', error.message, { ...error.details, ...extra });
}

/**
 * A request's amount in major units (REST `amount`, webhook `amount`/`fiatAmount`): a positive
 * JSON number up to 2^53-1, or an ExactNumber (a number the double would alter) within the same
 * range, passed on as its exact plain decimal text. Exactness against the asset's fractions is
 * checked by toMinor once the asset is known. Documented as a number in OpenAPI.
 */
export const AmountRule = z.union(
  [
    z.number().positive().max(Number.MAX_SAFE_INTEGER),
    z.custom<ExactNumber>((value) => value instanceof ExactNumber, { abort: true }).transform((value, ctx) => {
      const parts = value.parts;
      const text = plainDecimal(value.text);
      let problem: string | null = null;
      if (parts.negative || parts.digits === '') problem = 'Too small: expected number to be >0';
      else if (exceeds(parts, BigInt(Number.MAX_SAFE_INTEGER))) problem = `Too big: expected number to be <=${Number.MAX_SAFE_INTEGER}`;
      else if (text === null) problem = 'has too many decimal places';
      if (problem === null) return text!;
      // `continue`: this branch's own refusal is the union's answer (not "invalid input")
      ctx.issues.push({ code: 'custom', message: problem, input: value, continue: true });
      return z.NEVER;
    }),
  ],
  { error: 'Invalid input: expected number' },
);
AmountRule._zod.toJSONSchema = () => ({ type: 'number', exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** Whether a non-negative decimal is larger than the integer `limit`, exactly. */
function exceeds({ digits, exponent }: DecimalParts, limit: bigint): boolean {
  const point = digits.length + exponent; // digits before the decimal point
  const limitDigits = limit.toString().length;
  if (point !== limitDigits) return point > limitDigits;
  const whole = BigInt(digits.slice(0, point).padEnd(point, '0'));
  return whole > limit || (whole === limit && digits.length > point);
}
