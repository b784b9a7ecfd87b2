import http from 'node:http';
import type { Database } from '../../src/db/database.js';
import { startTestApp, ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { startLoggedApp, type LoggedApp } from '../support/logged-app.js';

/**
 * CONTRACT §6 error model on the endpoints that exist in the foundation
 * (POST /admin/api-keys, GET /user/plan, POST /graphql, /healthz, /readyz).
 */
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('errors-owner');
});
afterAll(() => t.close());

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/**
 * A request with exact control of the bytes sent (fetch adds a Content-Type to string bodies).
 * `chunked`: no Content-Length, the body streamed in pieces.
 */
function raw(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string | number>; body?: string | Buffer; chunked?: boolean } = {},
): Promise<Raw> {
  const url = new URL(path, baseUrl);
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  const headers: Record<string, string | number> = { ...options.headers };
  if (body !== undefined && !options.chunked) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({ host: url.hostname, port: url.port, method, path: url.pathname + url.search, headers, agent: false }, (res) => {
      answered = true;
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, body: text ? JSON.parse(text) : undefined }));
    });
    // The server may answer (413, 401) and close before it has read the whole body.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (body === undefined) return void req.end();
    if (!options.chunked) return void req.end(body);
    for (let offset = 0; offset < body.length; offset += 16 * 1024) req.write(body.subarray(offset, offset + 16 * 1024));
    req.end();
  });
}

const admin = (extra: Record<string, string> = {}) => ({ admin_token: ADMIN_TOKEN, ...extra });
const LIMIT = 100 * 1024;

/** A JSON body of exactly `size` bytes (valid for POST /admin/api-keys except for its size). */
function jsonOfSize(size: number): string {
  const base = JSON.stringify({ owner: 'big', plan_code: 'pro' });
  return base.slice(0, -1) + ' '.repeat(size - base.length) + '}';
}

function expectErrorBody(res: { body: any; status: number }, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['code', 'details', 'message']);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(res.body.details).not.toBeNull();
  expect(typeof res.body.details).toBe('object');
  expect(Array.isArray(res.body.details)).toBe(false);
}

describe('400 invalid_json', () => {
  it.each([
    ['truncated', '{"owner": "a",'],
    ['not JSON at all', 'owner=a&plan_code=pro'],
    ['trailing garbage', '{"owner":"a","plan_code":"pro"} x'],
  ])('answers a %s body with invalid_json', async (_name, body) => {
    const res = await raw(t.baseUrl, 'POST', '/admin/api-keys', { headers: admin({ 'content-type': 'application/json' }), body });
    expectErrorBody(res, 400, 'invalid_json');
    expect(res.body.details).toEqual({});
  });

  it('answers invalid JSON on /graphql with invalid_json too', async () => {
    const res = await raw(t.baseUrl, 'POST', '/graphql', { headers: { api_key: key, 'content-type': 'application/json' }, body: '{"query": ' });
    expectErrorBody(res, 400, 'invalid_json');
  });
});

describe('415 unsupported_media_type', () => {
  it.each([
    ['missing', undefined],
    ['text/plain', 'text/plain'],
    ['form-encoded', 'application/x-www-form-urlencoded'],
    ['JSON in another charset', 'application/json; charset=latin1'],
  ])('answers a body with a %s Content-Type with 415', async (_name, contentType) => {
    const headers = admin(contentType === undefined ? {} : { 'content-type': contentType });
    const res = await raw(t.baseUrl, 'POST', '/admin/api-keys', { headers, body: JSON.stringify({ owner: 'a', plan_code: 'pro' }) });
    expectErrorBody(res, 415, 'unsupported_media_type');
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON; charset="utf-8"'])('accepts Content-Type %s', async (contentType) => {
    const res = await raw(t.baseUrl, 'POST', '/admin/api-keys', {
      headers: admin({ 'content-type': contentType }),
      body: JSON.stringify({ owner: 'media-ok', plan_code: 'pro' }),
    });
    expect(res.status).toBe(201);
  });

  it('treats a request without a body as an empty object, not as 415 (fields are then missing)', async () => {
    const res = await raw(t.baseUrl, 'POST', '/admin/api-keys', { headers: admin() });
    expectErrorBody(res, 400, 'validation_error');
    expect(res.body.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['owner', 'plan_code']);
  });
});

describe('413 payload_too_large', () => {
  it('accepts a body of exactly 100 KiB', async () => {
    const res = await raw(t.baseUrl, 'POST', '/admin/api-keys', { headers: admin({ 'content-type': 'application/json' }), body: jsonOfSize(LIMIT) });
    expect(res.status).toBe(201);
  });

  it('refuses one byte more, declared by Content-Length', async () => {
    const res = await raw(t.baseUrl, 'POST', '/admin/api-keys', { headers: admin({ 'content-type': 'application/json' }), body: jsonOfSize(LIMIT + 1) });
    expectErrorBody(res, 413, 'payload_too_large');
  });

  it('refuses a chunked body that grows past the limit', async () => {
    const res = await raw(t.baseUrl, 'POST', '/admin/api-keys', {
      headers: admin({ 'content-type': 'application/json' }),
      body: jsonOfSize(LIMIT + 1),
      chunked: true,
    });
    expectErrorBody(res, 413, 'payload_too_large');
  });

  it('refuses an oversized body on /graphql', async () => {
    const res = await raw(t.baseUrl, 'POST', '/graphql', {
      headers: { api_key: key, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ plan { planCode } }${' '.repeat(LIMIT)}` }),
    });
    expectErrorBody(res, 413, 'payload_too_large');
  });
});

describe('check order: 401, then 413/415, then 400', () => {
  const big = jsonOfSize(LIMIT * 2);

  it('answers 401 before 413 and 415 (admin_token)', async () => {
    const variants: Record<string, string>[] = [{ 'content-type': 'application/json' }, { 'content-type': 'text/plain' }, {}];
    for (const headers of variants) {
      const wrong = await raw(t.baseUrl, 'POST', '/admin/api-keys', { headers: { ...headers, admin_token: 'wrong-token' }, body: big });
      expectErrorBody(wrong, 401, 'unauthorized');
      const none = await raw(t.baseUrl, 'POST', '/admin/api-keys', { headers, body: 'not json' });
      expectErrorBody(none, 401, 'unauthorized');
    }
  });

  it('answers 401 before 413 and 415 (api_key)', async () => {
    const tooBig = await raw(t.baseUrl, 'POST', '/projects', { headers: { 'content-type': 'application/json' }, body: big });
    expectErrorBody(tooBig, 401, 'unauthorized');
    const wrongType = await raw(t.baseUrl, 'POST', '/projects', { headers: { 'content-type': 'text/plain', api_key: 'lk_unknown' }, body: '{}' });
    expectErrorBody(wrongType, 401, 'unauthorized');
  });

  it('answers 413 before 415, and 415 before 400', async () => {
    const both = await raw(t.baseUrl, 'POST', '/admin/api-keys', { headers: admin({ 'content-type': 'text/plain' }), body: big });
    expectErrorBody(both, 413, 'payload_too_large');
    const notJson = await raw(t.baseUrl, 'POST', '/admin/api-keys', { headers: admin({ 'content-type': 'text/plain' }), body: '{' });
    expectErrorBody(notJson, 415, 'unsupported_media_type');
  });

  it('answers invalid_json before field validation', async () => {
    const res = await raw(t.baseUrl, 'POST', '/admin/api-keys', { headers: admin({ 'content-type': 'application/json' }), body: '{"unknown": ' });
    expectErrorBody(res, 400, 'invalid_json');
  });
});

describe('404 not_found', () => {
  it.each([
    ['GET', '/no-such-route'],
    ['GET', '/user/plan/extra'],
    ['DELETE', '/user/plan'],
    ['POST', '/user/plan'],
    ['GET', '/graphql/x'],
  ])('answers an authenticated %s %s with 404', async (method, path) => {
    const res = await raw(t.baseUrl, method, path, { headers: { api_key: key } });
    expectErrorBody(res, 404, 'not_found');
  });

  it('answers an unknown /admin route with 404 once the admin_token is right', async () => {
    const res = await raw(t.baseUrl, 'GET', '/admin/nothing', { headers: admin() });
    expectErrorBody(res, 404, 'not_found');
  });
});

describe('400 validation_error', () => {
  const post = (body: unknown) => t.request('POST', '/admin/api-keys', { headers: { admin_token: ADMIN_TOKEN }, body });

  it('names an unknown field', async () => {
    const res = await post({ owner: 'a', plan_code: 'pro', role: 'admin' });
    expectErrorBody(res, 400, 'validation_error');
    expect(res.body.details.field).toBe('role');
    expect(res.body.details.fields).toEqual([{ field: 'role', problem: expect.any(String) }]);
    expect(res.body.message).toContain('role');
  });

  it('names every unknown field when there are several', async () => {
    const res = await post({ owner: 'a', plan_code: 'pro', role: 'admin', level: 9 });
    expectErrorBody(res, 400, 'validation_error');
    expect(JSON.stringify(res.body.details)).toContain('role');
    expect(JSON.stringify(res.body.details)).toContain('level');
  });

  it.each([
    ['a missing field', { plan_code: 'pro' }, 'owner'],
    ['a mistyped field', { owner: 42, plan_code: 'pro' }, 'owner'],
    ['an empty owner', { owner: '   ', plan_code: 'pro' }, 'owner'],
    ['an owner over 200 characters', { owner: 'x'.repeat(201), plan_code: 'pro' }, 'owner'],
    ['an unknown plan', { owner: 'a', plan_code: 'platinum' }, 'plan_code'],
  ])('names the field for %s', async (_name, body, field) => {
    const res = await post(body);
    expectErrorBody(res, 400, 'validation_error');
    expect(res.body.details.field).toBe(field);
  });

  it.each([
    ['an array', []],
    ['a string', 'owner'],
    ['null', null],
  ])('refuses %s as the body', async (_name, body) => {
    const res = await t.request('POST', '/admin/api-keys', { headers: { admin_token: ADMIN_TOKEN }, raw: JSON.stringify(body) });
    expectErrorBody(res, 400, 'validation_error');
  });

  it('refuses an Idempotency-Key over 255 characters', async () => {
    const res = await t.request('POST', '/graphql', {
      key,
      body: { query: '{ plan { planCode } }' },
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    expectErrorBody(res, 400, 'validation_error');
    expect(res.body.details.field).toBe('Idempotency-Key');
  });
});

describe('health', () => {
  it('/healthz answers 200 without auth', async () => {
    const res = await t.request('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 without auth while the database is reachable', async () => {
    const res = await t.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
  });
});

describe('X-Request-Id', () => {
  it('echoes a well-formed X-Request-Id, on success and on error', async () => {
    const ok = await t.request('GET', '/user/plan', { key, headers: { 'x-request-id': 'client-req.42:a_b-c' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('client-req.42:a_b-c');
    const failed = await t.request('GET', '/user/plan', { headers: { 'x-request-id': 'client-req-401' } });
    expect(failed.status).toBe(401);
    expect(failed.headers.get('x-request-id')).toBe('client-req-401');
  });

  it('generates one when none is sent, different per request', async () => {
    const a = await t.request('GET', '/healthz');
    const b = await t.request('GET', '/nope', { key });
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    expect(a.headers.get('x-request-id')).toMatch(uuid);
    expect(b.headers.get('x-request-id')).toMatch(uuid);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it.each([
    ['spaces', 'has spaces'],
    ['over 128 characters', 'r'.repeat(129)],
    ['markup', '<script>'],
  ])('replaces one with %s by a generated id', async (_name, id) => {
    const res = await t.request('GET', '/healthz', { headers: { 'x-request-id': id } });
    expect(res.headers.get('x-request-id')).not.toBe(id);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('every error answer', () => {
  it('is JSON with exactly code, message and details', async () => {
    const answers = await Promise.all([
      t.request('GET', '/user/plan'),
      t.request('GET', '/user/plan', { key: 'lk_wrong' }),
      t.request('GET', '/missing', { key }),
      t.request('POST', '/admin/api-keys', { headers: { admin_token: ADMIN_TOKEN }, body: { owner: 'a' } }),
      t.request('POST', '/admin/api-keys', { headers: { admin_token: ADMIN_TOKEN }, raw: '{' }),
      t.request('POST', '/admin/api-keys', { headers: { admin_token: ADMIN_TOKEN }, raw: '{}', contentType: 'text/csv' }),
      t.request('POST', '/admin/api-keys', { headers: { admin_token: 'nope-nope' }, body: {} }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([401, 401, 404, 400, 400, 415, 401]);
    for (const answer of answers) {
      expectErrorBody(answer, answer.status, answer.body.code);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
  });
});

/**
 * 500: the app's own database pool is closed under it, then an authenticated route needs the
 * database (a key never seen, so not cached). The answer must be an opaque internal_error,
 * logged with its request id; /readyz then reports 503.
 */
describe('500 internal_error', () => {
  let logged: LoggedApp;
  let db: Database;
  let baseUrl: string;
  let lines: Record<string, any>[];

  beforeAll(async () => {
    logged = await startLoggedApp();
    ({ db, baseUrl, lines } = logged);
  });
  afterAll(() => logged.close());

  it('answers 500 internal_error without internals, logs it with the request id, and /readyz says 503', async () => {
    const issued = await raw(baseUrl, 'POST', '/admin/api-keys', {
      headers: admin({ 'content-type': 'application/json' }),
      body: JSON.stringify({ owner: 'doomed', plan_code: 'pro' }),
    });
    expect(issued.status).toBe(201);
    expect((await raw(baseUrl, 'GET', '/readyz')).status).toBe(200);

    await db.close();

    const res = await raw(baseUrl, 'GET', '/user/plan', { headers: { api_key: issued.body.api_key, 'x-request-id': 'req-500-check' } });
    expectErrorBody(res, 500, 'internal_error');
    expect(res.body).toEqual({ code: 'internal_error', message: 'internal error', details: {} });
    expect(res.text).not.toMatch(/\bat .+:\d+:\d+|node_modules|\.js\b|\.ts\b|pool|Error:/i);
    expect(res.headers['x-request-id']).toBe('req-500-check');

    const logged = lines.find((l) => l.requestId === 'req-500-check' && l.msg === 'unexpected error');
    expect(logged).toBeDefined();
    expect(logged!.level).toBe(50);
    expect(logged!.err).toBeDefined(); // the cause goes to the log, never to the client

    const ready = await raw(baseUrl, 'GET', '/readyz');
    expectErrorBody(ready, 503, 'internal_error');
    expect(ready.text).not.toMatch(/\bat .+:\d+:\d+|Error:/);
    expect((await raw(baseUrl, 'GET', '/healthz')).status).toBe(200); // the process itself is up
  });
});
