import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readAsset } from '../../src/web/assets.js';

/**
 * The console's modules import each other as /static/console-<name>.js (src/web/assets.ts maps
 * those names to src/web/console/<name>.js): every import, static or dynamic, names a served file,
 * and every module in the folder is served, so a new view cannot be left out of the list.
 */
const DIR = path.join(process.cwd(), 'src/web/console');
const modules = readdirSync(DIR).filter((f) => f.endsWith('.js'));
const servedName = (file: string) => (file === 'console.js' ? file : `console-${file}`);

it('serves every console module under the name its importers use', () => {
  for (const file of modules) expect([file, readAsset(servedName(file))?.type]).toEqual([file, 'text/javascript; charset=utf-8']);
});

it('resolves every import of every console module to a served module', () => {
  const imports = modules.flatMap((file) => [...readFileSync(path.join(DIR, file), 'utf8').matchAll(/(?:from |import\()'\.\/([^']+)'/g)].map((m) => [file, m[1]]));
  expect(imports.length).toBeGreaterThan(modules.length);
  for (const [file, target] of imports) expect([file, target, readAsset(target) !== undefined]).toEqual([file, target, true]);
});
