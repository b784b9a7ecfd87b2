import { parseArgs } from 'node:util';
import { withDatabase } from './with-database.js';
import { JournalRepository } from '../domain/journal/journal.repository.js';
import { JournalVerifier } from '../domain/journal/journal-verifier.js';
import { MAX_PROJECT_ID } from '../domain/shared/ids.js';

/**
 * `npm run verify -- --project <id>`: verifies a project's journal (CONTRACT §22) straight from
 * DATABASE_URL (or the embedded cluster of LEDGER_DATA_DIR), with no service running, and prints
 * the report GET /projects/{id}/journal/verify answers. Exit 0 when the journal is sound, 1 when
 * it is broken, 2 when it could not tell (usage, an unknown project, the database unreachable).
 * It only reads: transactions not journaled yet count as the tail after the chain (journal-verifier.ts).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { project: { type: 'string' } } });
  const projectId = Number(values.project);
  if (!values.project || !/^\d+$/.test(values.project) || projectId < 1 || projectId > MAX_PROJECT_ID) {
    process.stderr.write('usage: npm run verify -- --project <id>\n');
    process.exit(2);
  }
  // It only reads, so it never migrates: a database of another version is read as it is.
  await withDatabase(
    { migrateEmbedded: false },
    async (db) => {
      const repository = new JournalRepository(db);
      if (!(await repository.projectExists(projectId))) {
        process.stderr.write(`project ${projectId} does not exist\n`);
        process.exitCode = 2;
        return;
      }
      const report = await new JournalVerifier(repository).verify(projectId);
      process.stdout.write(`${JSON.stringify(report)}\n`);
      process.exitCode = report.ok ? 0 : 1;
    },
    (error) => {
      process.stderr.write(`verify failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}

void main();
