import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { consoleAssets, servedFolder } from '../../src/web/assets.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The console's files are served as /static/console/<file>, the list read from its folder
 * (src/web/assets.ts): its modules import each other by file name (`./api.js`), which the browser
 * resolves beside the importer, so every import names a file that is served.
 */
const DIR = path.join(process.cwd(), 'src/web/console');
const files = readdirSync(DIR);
const modules = files.filter((f) => f.endsWith('.js'));
const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml; charset=utf-8' };

describe('the served list', () => {
  it("is the folder's files, but for its type checking's (tsconfig.json, types.d.ts)", () => {
    expect(consoleAssets.names().sort()).toEqual(files.filter((f) => f !== 'tsconfig.json' && !f.endsWith('.d.ts')).sort());
    expect(files).toEqual(expect.arrayContaining(['tsconfig.json', 'types.d.ts', 'console.js', 'console.css', 'icon.svg']));
    for (const file of consoleAssets.names()) expect([file, consoleAssets.read(file)?.type]).toEqual([file, TYPES[path.extname(file)]]);
  });

  it('is read from the folder at first use: a file added before it is served, one never there is not', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'served-folder-'));
    try {
      writeFileSync(path.join(dir, 'one.js'), 'export const one = 1;\n');
      const folder = servedFolder(dir);
      writeFileSync(path.join(dir, 'view-new.js'), "import { one } from './one.js';\n");
      writeFileSync(path.join(dir, 'notes.md'), '# not served\n');
      expect(folder.names().sort()).toEqual(['one.js', 'view-new.js']);
      expect(folder.read('view-new.js')).toEqual({ body: "import { one } from './one.js';\n", type: 'text/javascript; charset=utf-8' });
      expect([folder.read('notes.md'), folder.read('../one.js'), folder.read('two.js')]).toEqual([undefined, undefined, undefined]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves every import of every console module, static, dynamic or of a JSDoc type, to a file of the folder', () => {
    const imports = modules.flatMap((file) =>
      [...readFileSync(path.join(DIR, file), 'utf8').matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'([^']+)'/gm)].map((m) => [file, m[1]]),
    );
    expect(imports.length).toBeGreaterThan(modules.length);
    for (const [file, target] of imports) {
      const inFolder = target.startsWith('./') && !target.slice(2).includes('/') && (consoleAssets.read(target.slice(2)) !== undefined || files.includes(target.slice(2).replace(/[.]js$/, '.d.ts')));
      expect([file, target, inFolder]).toEqual([file, target, true]);
    }
  });
});

describe('GET /static/console/{file}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves a module with the caching of every static file', async () => {
    const res = await fetch(`${t.baseUrl}/static/console/api.js`);
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=3600']);
    expect(await res.text()).toBe(readFileSync(path.join(DIR, 'api.js'), 'utf8'));
  });

  it.each([
    ['an unknown name', '/static/console/nope.js'],
    ['the type checking', '/static/console/tsconfig.json'],
    ['the types', '/static/console/types.d.ts'],
    ['a path out of the folder', '/static/console/..%2Fassets.ts'],
    ['the served name before file names', '/static/console-api.js'],
  ])('answers 404 not_found for %s', async (_what, url) => {
    const res = await fetch(t.baseUrl + url);
    expect([res.status, await res.json()]).toEqual([404, { code: 'not_found', message: 'asset not found', details: {} }]);
  });
});
