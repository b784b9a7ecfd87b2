import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/**
 * Database routines whose current definition lives in one `.sql` file beside the code that calls
 * them (the posting rules in src/domain/ledger/ledger_post.sql). Schema migrations change tables;
 * these files are code, installed by `migrate()` after the migrations whenever their text changes
 * (a repeatable migration), so a reader finds the rules in exactly one place. Installed in this
 * order: a routine that calls another comes after it.
 */
export const ROUTINES = [
  // The predicates written once (inlined by PostgreSQL into the statements that use them).
  { name: 'holds_expired', file: 'src/domain/holds/holds_expired.sql' },
  { name: 'lots_live', file: 'src/domain/lots/lots_live.sql' },
  { name: 'lots_due', file: 'src/domain/lots/lots_due.sql' },
  { name: 'ledger_emit', file: 'src/domain/events/ledger_emit.sql' },
  // Program analytics (CONTRACT §23): the rollups ledger_sequence_events folds each numbered batch into.
  { name: 'analytics_apply', file: 'src/domain/analytics/analytics_apply.sql' },
  { name: 'analytics_fold', file: 'src/domain/analytics/analytics_fold.sql' },
  { name: 'analytics_rebuild', file: 'src/domain/analytics/analytics_rebuild.sql' },
  { name: 'ledger_sequence_events', file: 'src/domain/events/ledger_sequence_events.sql' },
  // Balance monitors (CONTRACT §20): judged by every routine below that changes a balance row.
  { name: 'monitors_judge', file: 'src/domain/monitors/monitors_judge.sql' },
  { name: 'monitors_changed', file: 'src/domain/monitors/monitors_changed.sql' },
  { name: 'ledger_release_expired', file: 'src/domain/ledger/ledger_release_expired.sql' },
  // Points that expire (CONTRACT §15): the lot rules, called by ledger_move, ledger_apply and the sweeper.
  { name: 'lots_expire_due', file: 'src/domain/lots/lots_expire_due.sql' },
  { name: 'lots_release', file: 'src/domain/lots/lots_release.sql' },
  { name: 'lots_settle', file: 'src/domain/lots/lots_settle.sql' },
  { name: 'lots_credit', file: 'src/domain/lots/lots_credit.sql' },
  { name: 'lots_consume', file: 'src/domain/lots/lots_consume.sql' },
  { name: 'lots_reserve', file: 'src/domain/lots/lots_reserve.sql' },
  { name: 'lots_capture', file: 'src/domain/lots/lots_capture.sql' },
  { name: 'lots_sweep', file: 'src/domain/lots/lots_sweep.sql' },
  // Spending and earning limits (CONTRACT §19): called by ledger_move and ledger_apply, and by the reads.
  { name: 'limits_applying', file: 'src/domain/limits/limits_applying.sql' },
  { name: 'limits_used', file: 'src/domain/limits/limits_used.sql' },
  { name: 'limits_check', file: 'src/domain/limits/limits_check.sql' },
  { name: 'ledger_move', file: 'src/domain/ledger/ledger_move.sql' },
  { name: 'ledger_apply', file: 'src/domain/ledger/ledger_apply.sql' },
  { name: 'ledger_post', file: 'src/domain/ledger/ledger_post.sql' },
  { name: 'webhook_post', file: 'src/domain/webhook/webhook_post.sql' },
  { name: 'webhook_sequence_calls', file: 'src/domain/webhook/webhook_sequence_calls.sql' },
] as const;

export interface Routine {
  name: string;
  sql: string;
  sha256: string;
}

/** The source tree ships with the build (dist/ only holds JavaScript), so files are read from the project root. */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export function loadRoutines(): Routine[] {
  const root = projectRoot();
  return ROUTINES.map(({ name, file }) => {
    const sql = readFileSync(path.join(root, file), 'utf8');
    return { name, sql, sha256: createHash('sha256').update(sql).digest('hex') };
  });
}

/** The routines whose file differs from the text recorded as installed (all of them when none is recorded). */
export function changedRoutines(routines: Routine[], installed: ReadonlyMap<string, string>): Routine[] {
  return routines.filter((routine) => installed.get(routine.name) !== routine.sha256);
}

/**
 * Installs every routine whose file changed since it was last installed, all in one transaction
 * with their records (one commit, so one WAL flush, where a routine each cost a flush each on a
 * fresh database). The caller holds the migration lock, so instances starting together take turns.
 */
export async function installRoutines(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ name: string; sha256: string }>(`SELECT name, sha256 FROM db_routines`);
  const changed = changedRoutines(loadRoutines(), new Map(rows.map((row) => [row.name, row.sha256])));
  if (!changed.length) return [];
  await client.query('BEGIN');
  try {
    for (const routine of changed) {
      await client.query(routine.sql);
      await client.query(
        `INSERT INTO db_routines (name, sha256) VALUES ($1, $2)
           ON CONFLICT (name) DO UPDATE SET sha256 = excluded.sha256, installed_at = now()`,
        [routine.name, routine.sha256],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return changed.map((routine) => routine.name);
}
