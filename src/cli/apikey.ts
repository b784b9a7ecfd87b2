import { parseArgs } from 'node:util';
import { withDatabase } from './with-database.js';
import { ApiKeyService } from '../domain/auth/api-key.service.js';
import { ApiKeyRepository } from '../domain/auth/api-key.repository.js';
import { PlanRepository } from '../domain/auth/plan.repository.js';
import { LedgerError } from '../domain/errors.js';

/** `npm run apikey -- --owner alice --plan pro`: prints {"api_key","owner","plan_code"}. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { owner: { type: 'string' }, plan: { type: 'string' } } });
  if (!values.owner || !values.plan) {
    process.stderr.write('usage: npm run apikey -- --owner <owner> --plan <free|starter|pro|enterprise>\n');
    process.exit(2);
  }
  const { owner, plan } = values;
  await withDatabase(
    { migrateEmbedded: true },
    async (db) => {
      const keys = new ApiKeyService(new ApiKeyRepository(db), await new PlanRepository(db).load());
      process.stdout.write(`${JSON.stringify(await keys.issue(owner.trim(), plan))}\n`);
    },
    (error) => {
      process.stderr.write(`${error instanceof LedgerError ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

void main();
