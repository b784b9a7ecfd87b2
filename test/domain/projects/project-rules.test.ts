import { CreateProjectRules, MAX_METADATA_BYTES, RenameProjectRules } from '../../../src/domain/projects/project.rules.js';

/** The field rules of a project (CONTRACT §3) that the service and the REST schemas share; the routes' answers are test/rest/projects.test.ts's. */
describe('CreateProjectRules', () => {
  it('fills the defaults: loyalty, exchange rate 1 unsupported, no metadata', () => {
    expect(CreateProjectRules.parse({ name: ' Shop ' })).toEqual({ name: 'Shop', type: 'loyalty', exchangeRate: 1, supportExchangeRate: false, metadata: {} });
  });

  it.each([
    ['an empty name', { name: '' }],
    ['a name of 201 characters', { name: 'x'.repeat(201) }],
    ['another type', { name: 'Shop', type: 'cashback' }],
    ['exchange rate 0', { name: 'Shop', exchangeRate: 0 }],
    ['an asset id that is not a UUID', { name: 'Shop', assetId: 'asset-1' }],
    ['an unknown field', { name: 'Shop', owner: 'bob' }],
  ])('refuses %s', (_, input) => {
    expect(CreateProjectRules.safeParse(input).success).toBe(false);
  });

  it(`takes metadata up to ${MAX_METADATA_BYTES} bytes of JSON, counted in UTF-8`, () => {
    const fits = { k: 'x'.repeat(MAX_METADATA_BYTES - '{"k":""}'.length) };
    expect(CreateProjectRules.safeParse({ name: 'Shop', metadata: fits }).success).toBe(true);
    // One more byte as a two-byte character goes past the bound although the string is no longer.
    const over = { k: `${'x'.repeat(MAX_METADATA_BYTES - '{"k":""}'.length - 1)}é` };
    expect(CreateProjectRules.safeParse({ name: 'Shop', metadata: over }).success).toBe(false);
  });
});

describe('RenameProjectRules', () => {
  it('takes a name and nothing else', () => {
    expect(RenameProjectRules.parse({ name: 'New' })).toEqual({ name: 'New' });
    expect(RenameProjectRules.safeParse({ name: 'New', type: 'loyalty' }).success).toBe(false);
  });
});
