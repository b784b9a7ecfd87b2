// Exact major <-> minor unit conversion for the baseline, in string/bigint arithmetic only.

export const MAX_MINOR_UNITS = BigInt(Number.MAX_SAFE_INTEGER); // 2^53 - 1

/** The shortest decimal text of a finite JS number, without exponent notation. */
export function numberToDecimal(value) {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const [mantissa, exponentText] = text.toLowerCase().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const [whole, decimals = ''] = mantissa.replace('-', '').split('.');
  const digits = whole + decimals;
  const point = whole.length + exponent;
  const result =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + result;
}

/**
 * A JSON number of major units to bigint minor units, or a string naming the problem.
 * Refuses more decimals than `fractions`, zero, negatives and more than 2^53-1 minor units.
 */
export function toMinor(amount, fractions) {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(numberToDecimal(amount));
  if (!match) return { problem: 'must be a positive decimal number' };
  const whole = match[1];
  const significant = (match[2] ?? '').replace(/0+$/, '');
  if (significant.length > fractions) return { problem: `has more than ${fractions} decimal places` };
  const minor = BigInt(whole + significant.padEnd(fractions, '0'));
  if (minor <= 0n) return { problem: 'must be greater than zero' };
  if (minor > MAX_MINOR_UNITS) return { problem: 'is larger than 2^53-1 minor units' };
  return { minor };
}

/** bigint (or int8 text) minor units to the decimal text of major units: 1250, 2 -> "12.5". */
export function toMajorText(minor, fractions) {
  const value = BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(fractions + 1, '0');
  const whole = digits.slice(0, digits.length - fractions);
  const decimals = fractions ? digits.slice(digits.length - fractions).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${decimals ? `.${decimals}` : ''}`;
}

/** Same as toMajorText, as a JSON number (what the API returns). */
export function toMajor(minor, fractions) {
  return Number(toMajorText(minor, fractions));
}
