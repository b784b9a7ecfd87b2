import { bucketRange, outstandingValue } from '../../../src/domain/analytics/analytics.rules.js';

describe('outstandingValue: outstanding ÷ exchangeRate, 2 decimals, half away from zero, exact', () => {
  it.each([
    [1250n, 2, '1', '12.5'],
    [1n, 2, '2', '0.01'], // 0.005 → 0.01 (half away from zero)
    [1n, 2, '3', '0'], // 0.00333…
    [5n, 3, '1', '0.01'], // 0.005
    [4n, 3, '1', '0'], // 0.004
    [100n, 0, '0.125', '800'],
    [1n, 0, '0.0000001', '10000000'],
    [9223372036854775807n, 2, '3', '30744573456182586.02'], // 92233720368547758.07 / 3 = …586.0233…
    [123456789n, 2, '1.5', '823045.26'], // 823045.26
    [0n, 2, '7', '0'],
  ])('%s minor units (%i fractions) at rate %s → %s', (outstanding, fractions, rate, expected) => {
    expect(outstandingValue(outstanding, fractions, rate)).toBe(expected);
  });
});

describe('bucketRange: UTC buckets, since rounded down and until up', () => {
  const now = new Date('2026-11-26T17:42:10.123Z');
  it('defaults to the 30 buckets ending with the current one', () => {
    expect(bucketRange('day', null, null, now)).toEqual({ since: new Date('2026-10-28T00:00:00.000Z'), until: new Date('2026-11-27T00:00:00.000Z'), buckets: 30 });
    expect(bucketRange('hour', null, null, now)).toEqual({ since: new Date('2026-11-25T12:00:00.000Z'), until: new Date('2026-11-26T18:00:00.000Z'), buckets: 30 });
  });
  it('rounds since down and until up to bucket starts', () => {
    expect(bucketRange('hour', new Date('2026-11-26T10:15:00Z'), new Date('2026-11-26T10:45:00Z'), now)).toEqual({
      since: new Date('2026-11-26T10:00:00Z'),
      until: new Date('2026-11-26T11:00:00Z'),
      buckets: 1,
    });
  });
  it('refuses since at or after until, and more than 400 buckets', () => {
    expect(() => bucketRange('day', new Date('2026-11-02T00:00:00Z'), new Date('2026-11-02T00:00:00Z'), now)).toThrow(/before until/);
    expect(() => bucketRange('hour', new Date('2026-11-01T00:00:00Z'), new Date('2026-11-17T17:00:00Z'), now)).toThrow(/at most 400/);
    expect(bucketRange('hour', new Date('2026-11-01T00:00:00Z'), new Date('2026-11-17T16:00:00Z'), now).buckets).toBe(400);
  });
});
