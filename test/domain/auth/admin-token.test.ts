import { adminTokenMatches } from '../../../src/domain/auth/admin-token.js';

/** CONTRACT §18: `admin_token` is compared in constant time (digests of equal length, crypto.timingSafeEqual). */
describe('adminTokenMatches', () => {
  it('accepts the token itself only', () => {
    expect(adminTokenMatches('s3cret-token', 's3cret-token')).toBe(true);
    expect(adminTokenMatches('s3cret-token', 's3cret-tokem')).toBe(false);
    expect(adminTokenMatches('s3cret-token', undefined)).toBe(false);
    expect(adminTokenMatches('s3cret-token', '')).toBe(false);
  });

  it('refuses a token of another length without failing (the comparison runs over digests of one length)', () => {
    expect(adminTokenMatches('s3cret-token', 's3cret')).toBe(false);
    expect(adminTokenMatches('s3cret-token', 's3cret-token-and-more')).toBe(false);
  });
});
