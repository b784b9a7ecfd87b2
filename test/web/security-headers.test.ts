import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * CONTRACT §18, browser pages: a Content-Security-Policy that forbids framing and names no source
 * outside the service's own origin, nosniff and no referrer; JSON answers carry nosniff too. What
 * the pages load under that policy without a violation is the browser test's (test/web/browser).
 */
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.issueKey('headers-owner');
});
afterAll(() => t.close());

const PAGES: [string, Record<string, string>][] = [
  ['/console', {}],
  ['/docs', {}],
  ['/graphql', { accept: 'text/html' }],
];

/** A page or file as received (t.request reads JSON). */
async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(t.baseUrl + path, { headers });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** The policy as directive → sources. */
function parsePolicy(header: string | null): Map<string, string[]> {
  const directives = (header ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]);
  return new Map(directives.map(([name, ...sources]) => [name, sources]));
}

describe.each(PAGES)('GET %s', (path, headers) => {
  it("sends a policy of 'self', 'none' and one fresh nonce only, framing refused, nosniff and no-referrer", async () => {
    const res = await get(path, headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const policy = parsePolicy(res.headers.get('content-security-policy'));
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    const sources = [...policy.values()].flat();
    const nonces = new Set(sources.filter((s) => s.startsWith("'nonce-")));
    expect(sources.filter((s) => s !== "'self'" && s !== "'none'" && !s.startsWith("'nonce-"))).toEqual([]);
    expect(nonces.size).toBe(1);
    // the nonce is the one in the page, and another response has another
    const nonce = [...nonces][0].slice("'nonce-".length, -1);
    expect(res.text).toContain(`nonce="${nonce}"`);
    const again = await get(path, headers);
    expect(again.headers.get('content-security-policy')).not.toContain(nonce);
  });

  it('has no inline script or style, and loads everything from this origin', async () => {
    const { text } = await get(path, headers);
    expect(text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // every script has a src
    expect(text).not.toMatch(/<style|\sstyle=/);
    const urls = [...text.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      expect(url).toMatch(/^\/static\//);
      expect((await get(url)).status).toBe(200);
    }
  });
});

describe('the stylesheets', () => {
  it("embed no data: URI (the policy refuses them): GraphiQL's fonts and images are files of their own", async () => {
    const css = await get('/static/graphiql.css');
    expect(css.text).not.toContain('data:');
    const files = [...css.text.matchAll(/url\((\/static\/inline-[^)]+)\)/g)].map((m) => m[1]);
    expect(files.length).toBeGreaterThan(0);
    const font = await fetch(t.baseUrl + files.find((f) => f.endsWith('.woff2'))!);
    expect([font.status, font.headers.get('content-type')]).toEqual([200, 'font/woff2']);
    expect(Buffer.from(await font.arrayBuffer()).subarray(0, 4).toString()).toBe('wOF2');
  });
});

describe('JSON answers', () => {
  it.each([
    ['a success', '/user/plan', true],
    ['a refusal', '/user/plan', false],
    ['an unknown route', '/no-such-route', true],
    ['the OpenAPI document', '/openapi.json', false],
  ])('carry X-Content-Type-Options: nosniff (%s)', async (_case, path, withKey) => {
    const res = await t.request('GET', path, withKey ? { key } : {});
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('carry it on GraphQL answers too', async () => {
    const res = await t.graphql(key, '{ plan { planCode } }');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
