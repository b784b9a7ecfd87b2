import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

describe('clients/typescript/src/schema.d.ts', () => {
  it('is what `npm run client:generate` makes of the current OpenAPI document (run it and commit the file when this fails)', async () => {
    // the generator as the npm script runs it (compiled by npm test's tsc step), printing instead of writing
    const { stdout } = await run(process.execPath, ['dist/clients/typescript/scripts/generate.js'], { maxBuffer: 32 * 1024 * 1024 });
    expect(stdout.length).toBeGreaterThan(10_000);
    expect(readFileSync('clients/typescript/src/schema.d.ts', 'utf8')).toBe(stdout);
  });
});
