import type { EntityManager } from '@mikro-orm/postgresql';
import type { Database } from './database.js';

/**
 * The sample calls a class that owns SQL declares in its own file (`export const SQL_SAMPLES`),
 * from which `npm run sql:generate` (src/cli/sql-generator.ts) writes src/queries/<file>.sql: every
 * statement each call sends, in order, as sent. Beside the class, so that a new method is written
 * with its sample, and test/cli/sql-generator.test.ts fails on a public method that has neither a
 * sample nor a reason in `unsampled`.
 */
export interface SqlSamples<R extends object> {
  /** The class over the database (and unit of work) the generator hands it, which records every statement it is sent. */
  open(db: Database, em: EntityManager): R;
  /**
   * A call with sample arguments per public method, keyed by the method's name; a second call of
   * the same method adds a note in parentheses: `post (with a webhook call)`.
   */
  calls: Record<string, (repository: R, context: SampleContext) => Promise<unknown>>;
  /** Public methods without a sample, each with why (they send no SQL of their own). */
  unsampled?: Record<string, string>;
}

export interface SampleContext {
  /** The recording unit of work, in a transaction of its own rolled back after the call: for methods that take the caller's transaction. */
  em: EntityManager;
  /**
   * The database unrecorded: what a call needs to exist first, when the empty database would stop
   * it before its main statement. What it writes stays for the calls after it (the files run in
   * path order): a sample removes it again.
   */
  unrecorded: Database;
}

/** Declares a file's samples (typed against the class `open` builds). */
export const sqlSamples = <R extends object>(samples: SqlSamples<R>): SqlSamples<R> => samples;

/**
 * Sample arguments. The generator runs on a new, empty, migrated database, so these name nothing
 * that exists: each call takes the path of a missing project or wallet, the same on every run.
 */
export const SAMPLE = {
  owner: 'owner',
  projectId: 1,
  id: '00000000-0000-4000-8000-000000000000',
  at: new Date('2026-01-01T00:00:00.000Z'),
} as const;
