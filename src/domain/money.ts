import { LedgerError, validationError } from './errors.js';

/**
 * The only place where amounts change representation. Inside the service every amount is a
 * bigint of minor units; the API speaks major units (JSON numbers), and an asset's
 * `fractions` says how many minor units make one major unit (10^fractions).
 */
export const MAX_MINOR_UNITS = BigInt(Number.MAX_SAFE_INTEGER); // 2^53 - 1

/**
 * Major units (a JSON number, or a decimal string) to minor units, refusing anything that is
 * not exactly representable: more decimals than `fractions`, zero or negative (unless allowed),
 * or more than 2^53-1 minor units. Works on the shortest decimal text of the number, so 1.005
 * stays 1.005 (three decimals) and never becomes 1.00499999.
 */
export function toMinor(amount: number | string, fractions: number, field = 'amount'): bigint {
  const text = typeof amount === 'number' ? numberToDecimal(amount) : amount.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw invalid(field, 'must be a positive decimal number');
  const [, whole, decimals = ''] = match;
  const significant = decimals.replace(/0+$/, '');
  if (significant.length > fractions) {
    throw invalid(field, `has more than ${fractions} decimal places`, { fractions });
  }
  const minor = BigInt(whole + significant.padEnd(fractions, '0'));
  if (minor <= 0n) throw invalid(field, 'must be greater than zero');
  if (minor > MAX_MINOR_UNITS) throw invalid(field, 'is larger than 2^53-1 minor units');
  return minor;
}

/** Minor units to a JSON number of major units; exact because minor ≤ 2^63 and fractions ≤ 18 print as decimal text. */
export function toMajor(minor: bigint | string | number, fractions: number): number {
  return Number(minorToDecimalString(BigInt(minor), fractions));
}

export function minorToDecimalString(minor: bigint, fractions: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(fractions + 1, '0');
  const whole = digits.slice(0, digits.length - fractions);
  const decimals = fractions ? digits.slice(digits.length - fractions).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${decimals ? `.${decimals}` : ''}`;
}

/**
 * fiatAmount × exchangeRate, rounded down to `fractions` decimals, as minor units — in exact
 * decimal arithmetic (both operands as scaled bigints).
 */
export function convertFiat(fiatAmount: number | string, exchangeRate: string, fractions: number): bigint {
  const fiat = parseDecimal(typeof fiatAmount === 'number' ? numberToDecimal(fiatAmount) : fiatAmount, 'values.fiatAmount');
  const rate = parseDecimal(exchangeRate, 'exchangeRate');
  const scale = fiat.scale + rate.scale;
  const product = fiat.units * rate.units; // scaled by 10^scale
  const minor = scale >= fractions ? product / 10n ** BigInt(scale - fractions) : product * 10n ** BigInt(fractions - scale);
  if (minor <= 0n) throw invalid('values.fiatAmount', 'converts to zero points');
  if (minor > MAX_MINOR_UNITS) throw invalid('values.fiatAmount', 'converts to more than 2^53-1 minor units');
  return minor;
}

function parseDecimal(text: string, field: string): { units: bigint; scale: number } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw invalid(field, 'must be a positive decimal number');
  const decimals = match[2] ?? '';
  return { units: BigInt(match[1] + decimals), scale: decimals.length };
}

/** The shortest decimal text of a finite number, without exponent notation. */
export function numberToDecimal(value: number): string {
  if (!Number.isFinite(value)) throw invalid('amount', 'must be a finite number');
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const [mantissa, exponentText] = text.toLowerCase().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const [whole, decimals = ''] = mantissa.replace('-', '').split('.');
  const digits = whole + decimals;
  const point = whole.length + exponent;
  const result =
    point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + result;
}

function invalid(field: string, problem: string, extra: Record<string, unknown> = {}): LedgerError {
  const error = validationError(field, problem);
  return new LedgerError('validation_error', error.message, { ...error.details, ...extra });
}
