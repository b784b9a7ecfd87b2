import { amountBound, decodeAfter, encodeAfter, likePrefix, metadataAlternatives } from '../../../src/domain/search/transaction-search.rules.js';

/** The rules of GET /transactions/search and Project.transactions (CONTRACT §21) that need no database; the searches themselves are test/rest/transactions-search.test.ts's. */
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
};

describe('amountBound', () => {
  it('is exact decimal text within the currency fractions', () => {
    expect(amountBound('minAmount', ' 12.50 ', 2)).toBe('12.5');
    expect(amountBound('minAmount', '0.000000000000000001', null)).toBe('0.000000000000000001');
  });

  it.each([
    ['a negative amount', '-1', 2],
    ['an exponent', '1e3', 2],
    ['more decimals than the currency has', '1.001', 2],
    ['more than 18 decimals without a currency', '0.0000000000000000001', null],
    ['no digits', '.5', 2],
  ])('refuses %s', (_, text, fractions) => {
    expect(codeOf(() => amountBound('minAmount', text, fractions))).toBe('validation_error');
  });
});

describe('metadataAlternatives', () => {
  it('matches a string, and the number or boolean whose JSON text the value is', () => {
    expect(metadataAlternatives({ key: 'order', value: 'A-2' })).toEqual(['{"order":"A-2"}']);
    expect(metadataAlternatives({ key: 'count', value: '5' })).toEqual(['{"count":"5"}', '{"count":5}']);
    expect(metadataAlternatives({ key: 'vip', value: 'true' })).toEqual(['{"vip":"true"}', '{"vip":true}']);
    expect(metadataAlternatives({ key: 'n', value: '05' })).toEqual(['{"n":"05"}']);
  });
});

describe('likePrefix', () => {
  it('escapes the LIKE wildcards so a prefix matches literally', () => {
    expect(likePrefix('order_1%\\')).toBe('order\\_1\\%\\\\%');
  });
});

describe('encodeAfter / decodeAfter', () => {
  it('round-trips a keyset position', () => {
    const date = new Date('2026-11-26T10:00:00.123Z');
    expect(decodeAfter(encodeAfter(date, '42'))).toEqual({ date, seq: '42' });
  });

  it.each([['not base64url!'], [Buffer.from('12:x').toString('base64url')], [Buffer.from('1:2:3').toString('base64url')], ['']])('refuses %j', (after) => {
    expect(codeOf(() => decodeAfter(after))).toBe('validation_error');
  });

  // CONTRACT §21 clarification: out of range is a validation_error too, never a database error (500)
  it.each([
    ['a date before the year 1 (PostgreSQL has no such timestamptz)', '-999999999999999:1'],
    ['the last millisecond before the year 1', '-62135596800001:1'],
    ['a date after the year 9999', '253402300800000:1'],
    ['the largest date the digits allow', '999999999999999:1'],
  ])('refuses %s', (_name, text) => {
    expect(codeOf(() => decodeAfter(Buffer.from(text).toString('base64url')))).toBe('validation_error');
  });

  it('takes the years 1 to 9999, both ends included', () => {
    for (const iso of ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      const date = new Date(iso);
      expect(decodeAfter(encodeAfter(date, '7'))).toEqual({ date, seq: '7' });
    }
  });
});
