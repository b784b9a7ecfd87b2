import fc from 'fast-check';
import { z } from 'zod';
import {
  AmountRule,
  canonicalDecimal,
  convertFiat,
  decimalParts,
  ExactNumber,
  MAX_MINOR_UNITS,
  minorToDecimalString,
  plainDecimal,
  sameDecimal,
  toMajor,
  toMinor,
} from '../../src/domain/money.js';
import { parseJson } from '../../src/http/body.js';
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
  it('prints minor units as major-unit decimal text', () => {
    expect(minorToDecimalString(1250n, 2)).toBe('12.5');
    expect(minorToDecimalString(5n, 3)).toBe('0.005');
  });
});

describe('canonical decimal text', () => {
  it.each([
    ['1.50', '15e-1'],
    ['15e-1', '15e-1'],
    ['0.15E1', '15e-1'],
    ['150e-2', '15e-1'],
    ['1e+21', '1e21'],
    ['1000', '1e3'],
    ['0.00100', '1e-3'],
    ['-2.5', '-25e-1'],
    ['0', '0'],
    ['-0', '0'],
    ['0.000e5', '0'],
    ['82241598.62827704', '8224159862827704e-8'],
  ])('%s is %s', (text, canonical) => {
    expect(canonicalDecimal(text)).toBe(canonical);
  });

  it.each(['', 'abc', '1.', '.5', '1e', '--1', '0x10', 'Infinity', 'NaN', ' 1'])('%p is not a number', (text) => {
    expect(canonicalDecimal(text)).toBeNull();
  });

  it('keeps an absurd exponent ordered (no overflow into a finite number)', () => {
    expect(decimalParts(`1e${'9'.repeat(400)}`)!.exponent).toBe(Number.POSITIVE_INFINITY);
    expect(decimalParts(`1e-${'9'.repeat(400)}`)!.exponent).toBe(Number.NEGATIVE_INFINITY);
  });

  it('plain decimals: exponents expanded exactly, absurd lengths refused', () => {
    expect(plainDecimal('8.2241598628277040e7')).toBe('82241598.62827704');
    expect(plainDecimal('1e-3')).toBe('0.001');
    expect(plainDecimal('-1.5E2')).toBe('-150');
    expect(plainDecimal('12.50')).toBe('12.5');
    expect(plainDecimal('0e9')).toBe('0');
    expect(plainDecimal('1e999999999')).toBeNull();
    expect(plainDecimal('1e-999999999')).toBeNull();
  });
});

describe('sameDecimal: does the double stand for the number as sent?', () => {
  it.each([
    ['1.50', 1.5],
    ['100e-2', 1],
    ['1E21', 1e21],
    ['0.30000000000000004', 0.1 + 0.2],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
    ['82241598.62827703', 82241598.62827703],
    ['-0', -0],
  ])('%s: yes', (source, value) => {
    expect(sameDecimal(source, value)).toBe(true);
  });

  it.each([
    ['82241598.62827704', 82241598.62827704], // the double prints …703
    ['90071992547409.91', 90071992547409.91], // the double prints …409.9
    ['1.0000000000000001', 1.0000000000000001], // the double is 1
    ['9007199254740993', 9007199254740993], // 2^53 + 1: the double is 2^53
    ['1e400', Number.POSITIVE_INFINITY],
    ['1e-400', 0],
  ])('%s: no', (source, value) => {
    expect(sameDecimal(source, value)).toBe(false);
  });

  it('agrees with the canonical comparison for every double (shortest text, any exponent form)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(sameDecimal(String(value), value)).toBe(true);
        expect(sameDecimal(value.toExponential(), value)).toBe(true);
      }),
    );
  });
});

describe('ExactNumber', () => {
  it('replaces a number only when its double would alter it', () => {
    expect(ExactNumber.from(12.5, '12.50')).toBe(12.5);
    const exact = ExactNumber.from(82241598.62827704, '82241598.62827704');
    expect(exact).toBeInstanceOf(ExactNumber);
    expect((exact as ExactNumber).text).toBe('82241598.62827704');
    expect(ExactNumber.from(Number.POSITIVE_INFINITY, '1e400')).toEqual(new ExactNumber('1e400'));
  });

  it('prints its text as sent in JSON, and is told apart by its digits', () => {
    const exact = new ExactNumber('82241598.62827704');
    expect(JSON.stringify({ amount: exact })).toBe('{"amount":82241598.62827704}');
    expect(Object.keys(exact)).toEqual(['text']);
    expect(String(exact)).toBe('82241598.62827704');
  });

  it.each(['abc', '01', '1.', '+1', ' 1'])('refuses %p (not JSON number grammar)', (text) => {
    expect(() => new ExactNumber(text)).toThrow(TypeError);
  });

  it('comes out of a JSON body only where the double would alter the number', () => {
    const body = parseJson('{"a":82241598.62827704,"b":[12.5,1e400,"1.0000000000000001"],"c":{"d":90071992547409.91,"e":1e2}}') as any;
    expect(body.a).toEqual(new ExactNumber('82241598.62827704'));
    expect(body.b).toEqual([12.5, new ExactNumber('1e400'), '1.0000000000000001']);
    expect(body.c).toEqual({ d: new ExactNumber('90071992547409.91'), e: 100 });
  });
});

describe('parseJson skips the exact-number reviver only where it would change nothing', () => {
  const slow = (text: string): unknown => JSON.parse(text, (_key, value, context?: { source?: string }) => (typeof value === 'number' && context?.source !== undefined ? ExactNumber.from(value, context.source) : value));

  it.each([
    '{"a":-9007199254740993}',
    '{"a": \n -123456789012.345}',
    '[1.0000000000000001, 2]',
    '[123456789012345, 1234567890123456]',
    '[-12345678901234, -123456789012345]',
    '12345678901234567',
    ' 1e400',
    '{"e":1e2,"f":-2.5E-3}',
    '{"id":"3e4a1b2c-0000-4000-8000-000000000000","n":12.5}',
    '{"s":"a:12345678901234567","n":1}',
  ])('%s', (text) => {
    expect(parseJson(text)).toEqual(slow(text));
  });

  it('holds for any JSON text', () => {
    fc.assert(fc.property(fc.json(), (text) => expect(parseJson(text)).toEqual(slow(text))), { numRuns: 2000 });
  });
});

describe('toMinor and convertFiat read an ExactNumber exactly', () => {
  it.each([
    ['82241598.62827704', 8, 8224159862827704n],
    ['90071992547409.91', 2, 9007199254740991n],
    ['8.224159862827704e7', 8, 8224159862827704n],
    ['9007199254740991', 0, MAX_MINOR_UNITS],
    ['1234.56780000000000000000', 8, 123456780000n],
  ])('%s with %i fractions is %p minor units', (text, fractions, expected) => {
    expect(toMinor(new ExactNumber(text), fractions)).toBe(expected);
  });

  it.each([
    ['0.10000000000000001', 2], // too many decimals
    ['90071992547409.92', 2], // 2^53 minor units
    ['9007199254740993', 0],
    ['-82241598.62827704', 8],
    ['1e400', 2],
    ['1e-400', 18],
    ['1e99999999999999999999', 2], // an exponent no double holds exactly
  ])('refuses %s with %i fractions', (text, fractions) => {
    expect(refused(() => toMinor(new ExactNumber(text), fractions))).toBe(true);
  });

  it('keeps strings to plain decimals (a GraphQL string "1e3" is refused, as before)', () => {
    expect(refused(() => toMinor('1e3', 2))).toBe(true);
    expect(toMinor(' 12.50 ', 2)).toBe(1250n);
  });

  it('converts an exact fiat amount with the digits that were sent', () => {
    expect(convertFiat(new ExactNumber('82241598.62827704'), '1', 8)).toBe(8224159862827704n);
    expect(convertFiat(82241598.62827704, '1', 8)).toBe(8224159862827703n); // what the double says
    expect(convertFiat(new ExactNumber('1.5e1'), '0.5', 2)).toBe(750n);
    expect(refused(() => convertFiat(new ExactNumber('1e-400'), '1.5', 2))).toBe(true); // zero points
    expect(refused(() => convertFiat(new ExactNumber('1e400'), '1.5', 2))).toBe(true); // too many points
    expect(refused(() => convertFiat(new ExactNumber('-1'), '1.5', 2))).toBe(true);
  });
});

describe('AmountRule', () => {
  it('passes a number on, and an ExactNumber as its plain exact text', () => {
    expect(AmountRule.parse(12.5)).toBe(12.5);
    expect(AmountRule.parse(new ExactNumber('82241598.62827704'))).toBe('82241598.62827704');
    expect(AmountRule.parse(new ExactNumber('8.224159862827704e7'))).toBe('82241598.62827704');
    expect(AmountRule.parse(new ExactNumber('9007199254740990.99999999999999999'))).toBe('9007199254740990.99999999999999999');
  });

  it.each([
    ['a string', '1', 'expected number'],
    ['zero', 0, '>0'],
    ['an exact negative', new ExactNumber('-82241598.62827704'), '>0'],
    ['an exact zero', new ExactNumber('0.0000000000000000000'), '>0'],
    ['an exact amount above 2^53-1', new ExactNumber('9007199254740991.00000000000000001'), '<=9007199254740991'],
    ['1e400', new ExactNumber('1e400'), '<=9007199254740991'],
    ['1e-400', new ExactNumber('1e-400'), 'decimal places'],
  ])('refuses %s with a message of its own', (_name, value, message) => {
    const result = AmountRule.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error!.issues).toHaveLength(1);
    expect(result.error!.issues[0].message).toContain(message);
  });

  it('is documented as a number', () => {
    expect(z.toJSONSchema(z.object({ amount: AmountRule }), { io: 'input', unrepresentable: 'any' }).properties!.amount).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
    });
  });
});

describe('toMajor: exact as a JSON number up to 2^52 minor units', () => {
  it.each([2, 8, 18])('round-trips any amount up to 2^52 minor units with %i fractions', (fractions) => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 52n }), (minor) => {
        expect(toMinor(toMajor(minor, fractions), fractions)).toBe(minor);
      }),
      { numRuns: 2000 },
    );
  });

  it('may print the nearest double above that (the stored value stays exact)', () => {
    expect(toMajor(9007199254740991n, 2)).toBe(90071992547409.9);
    expect(toMajor(8224159862827704n, 8)).toBe(82241598.62827703);
  });
});
