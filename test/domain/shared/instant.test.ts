import { parseInstant } from '../../../src/domain/shared/instant.js';

const iso = (text: string): string | null => parseInstant(text)?.toISOString() ?? null;

describe('parseInstant: an ISO 8601 timestamp with its offset', () => {
  it.each([
    ['2026-12-31T23:59:59.999Z', '2026-12-31T23:59:59.999Z'],
    ['2026-12-31T23:59:59Z', '2026-12-31T23:59:59.000Z'],
    ['2026-12-31T23:59Z', '2026-12-31T23:59:00.000Z'],
    ['2026-12-31t23:59:59.5z', '2026-12-31T23:59:59.500Z'],
    ['2027-01-01T00:59:59.999+01:00', '2026-12-31T23:59:59.999Z'],
    ['2027-01-01T00:59:59.999+0100', '2026-12-31T23:59:59.999Z'],
    ['2027-01-01T00:59:59.999+01', '2026-12-31T23:59:59.999Z'],
    ['2026-12-31T18:29:59.999-05:30', '2026-12-31T23:59:59.999Z'],
    ['2026-12-31T23:59:59.999-00:00', '2026-12-31T23:59:59.999Z'],
    ['2026-12-31T23:59:59,25Z', '2026-12-31T23:59:59.250Z'],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
    ['2000-02-29T12:00:00Z', '2000-02-29T12:00:00.000Z'],
    ['0050-06-01T00:00:00Z', '0050-06-01T00:00:00.000Z'],
  ])('%s is %s', (text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it('truncates digits finer than a millisecond, never rounding into the next one', () => {
    expect(iso('2026-01-01T00:00:00.1239Z')).toBe('2026-01-01T00:00:00.123Z');
    expect(iso('2026-01-01T00:00:00.999999999Z')).toBe('2026-01-01T00:00:00.999Z');
    expect(iso('2026-01-01T00:00:00.0001+02:00')).toBe('2025-12-31T22:00:00.000Z');
  });

  it.each([
    ['no offset', '2026-12-31T23:59:59.999'],
    ['a date alone', '2026-12-31'],
    ['a space for T', '2026-12-31 23:59:59Z'],
    ['30 February', '2026-02-30T00:00:00Z'],
    ['29 February of a common year', '2026-02-29T00:00:00Z'],
    ['1900 is no leap year', '1900-02-29T00:00:00Z'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['day 0', '2026-01-00T00:00:00Z'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['a leap second', '2026-12-31T23:59:60Z'],
    ['minute 60 of an offset', '2026-01-01T00:00:00+01:60'],
    ['an offset of 24 hours', '2026-01-01T00:00:00+24:00'],
    ['an empty fraction', '2026-01-01T00:00:00.Z'],
    ['an epoch number', '1767225600000'],
    ['a year of five digits', '20260-01-01T00:00:00Z'],
    ['a named month', 'Thu, 01 Jan 2026 00:00:00 GMT'],
    ['trailing text', '2026-01-01T00:00:00Zx'],
    ['empty', ''],
  ])('refuses %s (%s)', (_what, text) => {
    expect(parseInstant(text)).toBeNull();
  });
});
