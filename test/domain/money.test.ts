import { convertFiat, MAX_MINOR_UNITS, minorToDecimalString, numberToDecimal, toMajor, toMinor } from '../../src/domain/money.js';
import { LedgerError } from '../../src/domain/errors.js';

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof LedgerError && error.code === 'validation_error';
  }
  return false;
};

describe('toMinor', () => {
  it.each([
    [12.5, 2, 1250n],
    [1, 0, 1n],
    [0.01, 2, 1n],
    [1.1, 2, 110n],
    ['7.000', 2, 700n],
    [1e-7, 7, 1n],
    [123456789.12, 2, 12345678912n],
  ])('%p with %i fractions is %p minor units', (amount, fractions, expected) => {
    expect(toMinor(amount, fractions)).toBe(expected);
  });

  it('refuses 1.005 with 2 fractions', () => {
    expect(refused(() => toMinor(1.005, 2))).toBe(true);
  });

  it('refuses a float artefact instead of rounding it (0.1 + 0.2 is 0.30000000000000004)', () => {
    expect(refused(() => toMinor(0.1 + 0.2, 2))).toBe(true);
  });

  it.each([0, -1, -0.01, Number.NaN, Number.POSITIVE_INFINITY])('refuses %p', (amount) => {
    expect(refused(() => toMinor(amount, 2))).toBe(true);
  });

  it('refuses more than 2^53-1 minor units and accepts exactly that many', () => {
    expect(toMinor(Number.MAX_SAFE_INTEGER, 0)).toBe(MAX_MINOR_UNITS);
    expect(refused(() => toMinor(Number.MAX_SAFE_INTEGER, 2))).toBe(true);
    expect(refused(() => toMinor('90071992547409.92', 2))).toBe(true);
  });
});

describe('toMajor', () => {
  it.each([
    [1250n, 2, 12.5],
    [1n, 2, 0.01],
    [0n, 2, 0],
    [MAX_MINOR_UNITS, 0, Number.MAX_SAFE_INTEGER],
    [1n, 18, 1e-18],
  ])('%p minor units with %i fractions is %p', (minor, fractions, expected) => {
    expect(toMajor(minor, fractions)).toBe(expected);
  });

  it('round-trips every amount of a 2-fraction asset up to 10.00', () => {
    for (let minor = 1n; minor <= 1000n; minor++) expect(toMinor(toMajor(minor, 2), 2)).toBe(minor);
  });
});

describe('convertFiat', () => {
  it('multiplies exactly and rounds down to the fractions', () => {
    expect(convertFiat(10, '1.5', 2)).toBe(1500n);
    expect(convertFiat(0.1, '3', 2)).toBe(30n);
    expect(convertFiat(1.99, '0.333', 2)).toBe(66n); // 0.66267 → 0.66
  });

  it('refuses a conversion that rounds to zero', () => {
    expect(refused(() => convertFiat(1, '0.333', 0))).toBe(true);
  });
});

describe('decimal text', () => {
  it('prints numbers without exponent notation', () => {
    expect(numberToDecimal(1e21)).toBe('1000000000000000000000');
    expect(numberToDecimal(1.5e-7)).toBe('0.00000015');
    expect(minorToDecimalString(1250n, 2)).toBe('12.5');
    expect(minorToDecimalString(5n, 3)).toBe('0.005');
  });
});
