/**
 * Exact money arithmetic for the checks, independent of src/domain/money.ts: JSON numbers of
 * major units become bigint minor units through their decimal text, never through float math.
 */
export function minorOf(major: number | string, fractions: number): bigint {
  const text = typeof major === 'number' ? decimalText(major) : major;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal amount: ${text}`);
  const [, sign, whole, decimals = ''] = match;
  if (decimals.replace(/0+$/, '').length > fractions) throw new Error(`${text} has more than ${fractions} decimals`);
  const minor = BigInt(whole + decimals.padEnd(fractions, '0').slice(0, fractions));
  return sign ? -minor : minor;
}

/** Minor units as the major-unit JSON number the API should send (exact for |minor| < 2^53). */
export function majorOf(minor: bigint, fractions: number): number {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(fractions + 1, '0');
  const whole = digits.slice(0, digits.length - fractions);
  const decimals = fractions ? digits.slice(digits.length - fractions) : '';
  return Number(`${negative ? '-' : ''}${whole}${decimals ? `.${decimals}` : ''}`);
}

function decimalText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not finite: ${value}`);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Exponent form (1e-7, 1e21): expand through toFixed/BigInt, exact for these magnitudes.
  const [mantissa, exp] = text.split('e');
  const exponent = Number(exp);
  const negative = mantissa.startsWith('-');
  const [whole, decimals = ''] = mantissa.replace('-', '').split('.');
  const digits = whole + decimals;
  const point = whole.length + exponent;
  const out = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + out;
}

export const sum = (values: Iterable<bigint>): bigint => {
  let total = 0n;
  for (const v of values) total += v;
  return total;
};
