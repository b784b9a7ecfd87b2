import { secretMatches } from '../../../src/domain/auth/secret-match.js';

/** CONTRACT §18: `admin_token` (and the metrics token) compared in constant time: digests of equal length, crypto.timingSafeEqual. */
describe('secretMatches', () => {
  it('accepts the token itself only', () => {
    expect(secretMatches('s3cret-token', 's3cret-token')).toBe(true);
    expect(secretMatches('s3cret-token', 's3cret-tokem')).toBe(false);
    expect(secretMatches('s3cret-token', undefined)).toBe(false);
    expect(secretMatches('s3cret-token', '')).toBe(false);
  });

  it('refuses a token of another length without failing (the comparison runs over digests of one length)', () => {
    expect(secretMatches('s3cret-token', 's3cret')).toBe(false);
    expect(secretMatches('s3cret-token', 's3cret-token-and-more')).toBe(false);
  });
});
