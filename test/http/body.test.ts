import { startTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('body-owner', 'pro');
});
afterAll(() => t.close());

/** The body's text, written by hand: what PostgreSQL could not store only ever arrives escaped. */
const create = (raw: string) => t.request('POST', '/projects', { key, raw });

describe('JSON bodies with text PostgreSQL cannot store (400, whatever shortcut the check takes)', () => {
  it.each([
    ['NUL in a value', '{"name":"a\\u0000b"}', 'name'],
    ['a lone high surrogate', '{"name":"a\\ud800"}', 'name'],
    ['a lone low surrogate, upper-case escape', '{"name":"\\uDC00a"}', 'name'],
    ['NUL in a nested key', '{"name":"ok","metadata":{"k\\u0000":1}}', 'metadata.k\u0000'],
  ])('refuses %s', async (_case, raw, field) => {
    const res = await create(raw);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details.field).toBe(field);
  });

  it.each([
    ['an emoji (a surrogate pair), raw', '{"name":"party 🎉"}', 'party 🎉'],
    ['an emoji, escaped', '{"name":"party \\ud83c\\udf89"}', 'party 🎉'],
    ['an escaped backslash before u0000', '{"name":"a\\\\u0000"}', 'a\\u0000'],
  ])('accepts %s', async (_case, raw, name) => {
    const res = await create(raw);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
  });
});
