import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  await globalThis.__ledgerCluster?.stop();
  if (process.env.LEDGER_TEST_DATA_DIR) rmSync(process.env.LEDGER_TEST_DATA_DIR, { recursive: true, force: true });
}
