import { parseArgs } from 'node:util';
import { withDatabase } from './with-database.js';
import { AnalyticsRepository } from '../domain/analytics/analytics.repository.js';

/**
 * `npm run analytics:rebuild -- --project <id>` (or `--all`): recomputes program analytics'
 * rollups exactly from the transactions (src/domain/analytics/analytics_rebuild.sql), after a
 * restore or to check them; safe while the service runs (it waits for the event numbering's lock,
 * so no fold runs meanwhile). Prints one JSON line per project: {"project", "buckets"}.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { project: { type: 'string' }, all: { type: 'boolean' } } });
  const projectId = values.project === undefined ? null : Number(values.project);
  if ((projectId === null) === !values.all || (projectId !== null && !(Number.isInteger(projectId) && projectId > 0))) {
    process.stderr.write('usage: npm run analytics:rebuild -- --project <id> | --all\n');
    process.exit(2);
  }
  await withDatabase(
    { migrateEmbedded: true },
    async (db) => {
      const repository = new AnalyticsRepository(db);
      for (const id of projectId === null ? await repository.projectIds() : [projectId]) {
        process.stdout.write(`${JSON.stringify({ project: id, buckets: await repository.rebuild(id) })}\n`);
      }
    },
    (error) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

void main();
