import { CreateAssetRules, ExpiresAfterSecondsRule, UpdateAssetRules } from '../../../src/domain/assets/asset.rules.js';

/** The field rules of an asset (CONTRACT §3, §15) that the service and the REST schemas share; the routes' answers are test/rest/assets.test.ts's. */
const create = { projectId: 1, name: 'Points', symbol: 'PTS', fractions: 2 };

describe('CreateAssetRules', () => {
  it('accepts a well-formed asset and trims its name', () => {
    expect(CreateAssetRules.parse({ ...create, name: '  Points  ' })).toEqual({ ...create, name: 'Points' });
  });

  it.each([
    ['an empty name', { name: '   ' }],
    ['a lower-case symbol', { symbol: 'pts' }],
    ['a symbol of 13 characters', { symbol: 'ABCDEFGHIJKLM' }],
    ['19 fractions', { fractions: 19 }],
    ['fractional fractions', { fractions: 1.5 }],
    ['project 0', { projectId: 0 }],
    ['an unknown field', { colour: 'red' }],
  ])('refuses %s', (_, change) => {
    expect(CreateAssetRules.safeParse({ ...create, ...change }).success).toBe(false);
  });

  it('takes symbols of A-Z 0-9 _ - up to 12 characters and 0 to 18 fractions', () => {
    expect(CreateAssetRules.safeParse({ ...create, symbol: 'A_B-C1234567', fractions: 18 }).success).toBe(true);
    expect(CreateAssetRules.safeParse({ ...create, fractions: 0 }).success).toBe(true);
  });
});

describe('ExpiresAfterSecondsRule', () => {
  it('is 1 second to 10 years, or null for points that never expire', () => {
    expect(ExpiresAfterSecondsRule.safeParse(1).success).toBe(true);
    expect(ExpiresAfterSecondsRule.safeParse(315_360_000).success).toBe(true);
    expect(ExpiresAfterSecondsRule.safeParse(null).success).toBe(true);
    expect(ExpiresAfterSecondsRule.safeParse(0).success).toBe(false);
    expect(ExpiresAfterSecondsRule.safeParse(315_360_001).success).toBe(false);
  });
});

describe('UpdateAssetRules', () => {
  it('needs one of name, symbol or expiresAfterSeconds (projectId alone changes nothing)', () => {
    const refused = UpdateAssetRules.safeParse({ projectId: 1 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].path).toEqual(['name']);
    expect(UpdateAssetRules.safeParse({ expiresAfterSeconds: null }).success).toBe(true);
  });
});
