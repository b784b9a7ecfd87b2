import { startTestApp, type TestApp } from '../support/test-app.js';

/** CORS (CONTRACT §17): preflight before authentication, allowed origins only, nothing when unset. */
const APP_ORIGIN = 'https://app.example';
let t: TestApp;
let plain: TestApp;
beforeAll(async () => {
  t = await startTestApp({ corsOrigins: `${APP_ORIGIN}, https://other.example` });
  plain = await startTestApp();
});
afterAll(async () => {
  await t.close();
  await plain.close();
});

const preflight = (app: TestApp, origin: string, path = '/transactions') =>
  fetch(`${app.baseUrl}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'api_key, content-type' } });

describe('CORS', () => {
  it('answers a preflight from an allowed origin with 204 before authentication', async () => {
    const res = await preflight(t, APP_ORIGIN);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(',').map((h) => h.trim());
    expect(allowed).toEqual(expect.arrayContaining(['api_key', 'content-type', 'idempotency-key', 'x-request-id', 'apollo-require-preflight']));
    expect((await preflight(t, APP_ORIGIN, '/graphql')).status).toBe(204);
  });

  it('puts access-control-allow-origin on answers to an allowed origin, errors included', async () => {
    const res = await fetch(`${t.baseUrl}/user/plan`, { headers: { origin: APP_ORIGIN } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
  });

  it('gives an origin that is not listed no CORS headers (its preflight meets authentication)', async () => {
    const res = await preflight(t, 'https://evil.example');
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(`${t.baseUrl}/healthz`, { headers: { origin: 'https://evil.example' } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('sends no CORS headers at all when LEDGER_CORS_ORIGINS is unset', async () => {
    const res = await preflight(plain, APP_ORIGIN);
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(`${plain.baseUrl}/healthz`, { headers: { origin: APP_ORIGIN } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows every origin with *', async () => {
    const any = await startTestApp({ corsOrigins: '*' });
    try {
      const res = await preflight(any, 'https://anywhere.example');
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await any.close();
    }
  });
});
