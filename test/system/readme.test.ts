import { execFile } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { killAll, newDataDir, NODE, removeDataDirs, spawnService, stopService, waitListening, type RunningService } from './support/process.js';

/**
 * README "First transfer in five commands": its shell block, exactly as written, run with bash
 * (curl, node) from a directory whose `.ledger-data` holds the dev key of a freshly started service.
 */
const SECTION = '## First transfer in five commands';

function walkthrough(): string {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf(SECTION)).split('\n## ')[0];
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!readme.includes(SECTION) || !block) throw new Error(`README.md has no shell block under "${SECTION}"`);
  return block[1];
}

let dir: string;
let service: RunningService;

beforeAll(async () => {
  dir = newDataDir();
  chmodSync(dir, 0o755); // the project directory of the walkthrough: the embedded PostgreSQL must reach .ledger-data inside it
  // a first start: initdb of a new cluster, slower than the usual start on a loaded machine
  service = await waitListening(spawnService({ dataDir: path.join(dir, '.ledger-data'), adminToken: null }), 50_000);
}, 60_000);

afterAll(async () => {
  if (service) await stopService(service);
  await killAll();
  removeDataDirs();
});

describe('README: first transfer in five commands', () => {
  it('runs as written and ends with the customer wallet holding the 12.5 COIN transferred', async () => {
    const script = walkthrough();
    expect(script).not.toContain('4000/'); // the address comes from BASE, so LEDGER_URL can move it
    const env: NodeJS.ProcessEnv = { ...process.env, LEDGER_URL: service.baseUrl, PATH: `${path.dirname(NODE)}${path.delimiter}${process.env.PATH}` };
    delete env.NODE_OPTIONS;
    // -e and pipefail: a failing line fails the test instead of scrolling by, as it would in a terminal
    const { stdout } = await promisify(execFile)('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: dir, env });
    const answers = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(answers).toHaveLength(4); // asset, seed, transfer, wallet (ids are captured, not printed)
    const [asset, , transfer, wallet] = answers;
    expect(asset).toMatchObject({ symbol: 'COIN', fractions: 2 });
    expect(transfer.transaction).toMatchObject({ amount: 12.5, currency: 'COIN', balance: 87.5, to: wallet.address });
    expect(wallet.balance).toEqual([expect.objectContaining({ currency: 'COIN', balance: 12.5 })]);
  });
});
