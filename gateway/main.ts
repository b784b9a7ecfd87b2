// `npm run gateway`: the ledger (on its embedded PostgreSQL unless DATABASE_URL is set), the
// rewards subgraph and Hive Gateway over the supergraph composed from both at start.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHiveGateway } from './hive-gateway.js';
import { REWARDS_SDL, startRewardsSubgraph } from './rewards-subgraph.js';
import { composeSupergraph } from './supergraph.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const HOST = process.env.HOST ?? '127.0.0.1';
const LEDGER_PORT = Number(process.env.PORT ?? 4000);
const GATEWAY_PORT = Number(process.env.GATEWAY_PORT ?? 4001);
const REWARDS_PORT = Number(process.env.REWARDS_PORT ?? 4002);

/** Starts the service as `npm start` does and resolves once it prints its `listening on` line. */
function startLedger(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(LEDGER_PORT), HOST },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        out = '';
        resolve({
          url: match[1],
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`the ledger exited with code ${code} before listening`)));
  });
}

const ledger = await startLedger();
const rewards = await startRewardsSubgraph(REWARDS_PORT, HOST);
const supergraph = composeSupergraph([
  { name: 'ledger', url: `${ledger.url}/graphql`, sdl: readFileSync(path.join(ROOT, 'schema', 'ledger.graphql'), 'utf8') },
  { name: 'rewards', url: rewards.url, sdl: REWARDS_SDL },
]);
const gateway = await startHiveGateway({ supergraph, port: GATEWAY_PORT, host: HOST, logging: 'warn' });
process.stdout.write(
  `ledger subgraph   ${ledger.url}/graphql\nrewards subgraph  ${rewards.url}\n` +
    `gateway listening on ${gateway.url} (POST with an api_key header; WebSocket subscriptions with {"api_key": …} in connection_init)\n`,
);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      await gateway.stop();
      await rewards.stop();
      await ledger.stop();
      process.exit(0);
    })();
  });
}
