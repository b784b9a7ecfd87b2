import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { connectTarget } from '../db/connect.js';
import { migrate, openDatabase } from '../db/database.js';
import { ApiKeyService } from '../domain/auth/api-key.service.js';
import { ApiKeyRepository } from '../domain/auth/api-key.repository.js';
import { PlanRepository } from '../domain/auth/plan.repository.js';
import { LedgerError } from '../domain/errors.js';
import { pino } from 'pino';

/** `npm run apikey -- --owner alice --plan pro`: prints {"api_key","owner","plan_code"}. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { owner: { type: 'string' }, plan: { type: 'string' } } });
  if (!values.owner || !values.plan) {
    process.stderr.write('usage: npm run apikey -- --owner <owner> --plan <free|starter|pro|enterprise>\n');
    process.exit(2);
  }
  const config = loadConfig();
  // Logs go to stderr: stdout carries only the JSON, so it can be piped (e.g. into jq).
  const logger = pino({ level: 'warn', base: { service: 'ledger' }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination(2));
  const target = await connectTarget(config, logger, true);
  const db = await openDatabase(target.url, logger, 2);
  try {
    if (target.embedded) await migrate(db, logger);
    const keys = new ApiKeyService(new ApiKeyRepository(db), await new PlanRepository(db).load());
    process.stdout.write(`${JSON.stringify(await keys.issue(values.owner.trim(), values.plan))}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof LedgerError ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await db.close();
    await target.embedded?.stop();
  }
}

void main();
