import { refuseOversizedQuery } from '../../../src/graphql/limits/selection-limit.rule.js';

/**
 * refuseOversizedQuery remembers the texts it accepted (clients send the same documents again
 * and again); what it answers must not change: a refused text is refused every time, and a text
 * accepted under some limits is judged again under others.
 */
describe('refuseOversizedQuery', () => {
  const wide = { maxTokens: 1_000, maxSelections: 100 };
  const narrow = { maxTokens: 1_000, maxSelections: 3 };
  const query = '{ a b c d e }';

  it('refuses an oversized text every time it comes', () => {
    expect(refuseOversizedQuery(query, narrow)?.message).toMatch(/expands to 5 selections; at most 3/);
    expect(refuseOversizedQuery(query, narrow)?.message).toMatch(/expands to 5 selections; at most 3/);
  });

  it('accepts a text within the limits every time, and judges it again under narrower limits', () => {
    expect(refuseOversizedQuery(query, wide)).toBeNull();
    expect(refuseOversizedQuery(query, wide)).toBeNull();
    expect(refuseOversizedQuery(query, narrow)).not.toBeNull();
    expect(refuseOversizedQuery(query, { ...wide })).toBeNull();
  });

  it('leaves a text that does not parse, or no text, to Apollo', () => {
    expect(refuseOversizedQuery('{ a', narrow)).toBeNull();
    expect(refuseOversizedQuery(undefined, narrow)).toBeNull();
  });
});
