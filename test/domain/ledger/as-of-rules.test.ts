import { AsOfRule, asOfRefusal } from '../../../src/domain/ledger/as-of.rules.js';

/** Which instants a wallet can be read at (CONTRACT §14); the text format is test/domain/shared/instant.test.ts's. */
describe('the as-of rules', () => {
  const wallet = { id: 'w', createdAt: new Date('2026-01-01T00:00:00.000Z') };
  const now = new Date('2026-06-01T00:00:00.000Z');

  it('accept an instant from the wallet’s creation (included) to now (included)', () => {
    expect(asOfRefusal(new Date('2026-01-01T00:00:00.000Z'), wallet, now)).toBeNull();
    expect(asOfRefusal(now, wallet, now)).toBeNull();
  });

  it('refuse an instant before the wallet existed or in the future, naming asOf', () => {
    for (const asOf of [new Date('2025-12-31T23:59:59.999Z'), new Date('2026-06-01T00:00:00.001Z')]) {
      const refusal = asOfRefusal(asOf, wallet, now);
      expect(refusal?.toBody()).toEqual({ code: 'validation_error', message: expect.stringMatching(/^asOf: /), details: { field: 'asOf', fields: [{ field: 'asOf', problem: expect.any(String) }] } });
    }
  });

  it('AsOfRule reads the text and refuses the future', () => {
    expect(AsOfRule.parse('2026-01-01T01:00:00.5+01:00').toISOString()).toBe('2026-01-01T00:00:00.500Z');
    expect(AsOfRule.safeParse(new Date(Date.now() + 60_000).toISOString()).success).toBe(false);
    expect(AsOfRule.safeParse('yesterday').success).toBe(false);
  });
});
