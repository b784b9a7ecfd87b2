import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/**
 * Database routines whose current definition lives in one `.sql` file beside the code that calls
 * them (the posting rules in src/domain/ledger/ledger_post.sql). Schema migrations change tables;
 * these files are code, installed by `migrate()` after the migrations whenever their text changes
 * (a repeatable migration), so a reader finds the rules in exactly one place.
 *
 * `calls`: the routines each one calls, so a reader sees the call graph without opening every
 * file; test/db/routines.test.ts reads the calls out of the SQL text and fails when this map does
 * not match it. Installed in this order, every routine after those it calls (a `LANGUAGE sql`
 * body is checked when it is created).
 */
/**
 * The floors of the routines, from the ground up (docs/decisions/domain-floors.md). A routine calls
 * only routines of a floor below its own, or of its own floor and its own feature (the folder of its
 * file): never up, never across to another feature on the same floor. test/db/routines.test.ts
 * fails on a call that breaks this.
 */
export const ROUTINE_FLOORS = [
  'predicate', // inlined predicates written once (holds_expired, lots_live, lots_due)
  'rollup', // the analytics rollups the numbering folds into
  'outbox', // the outbox write and the numbering of events and inbound calls
  'monitor', // balance monitors, judged by whatever changes a balance
  'effect', // one kind of row each: a hold's release, a lot's credit or expiry, a limit's use, a reference
  'settle', // a wallet brought up to date (lots_settle), a limit judged (limits_check)
  'move', // ledger_move: one movement between two wallets
  'verb', // a reversal, a hold's creation, capture or void
  'entry', // what the service calls: ledger_post and its ledger_apply, the sweeps
  'inbound', // webhook_post: an inbound call's posting
] as const;
export type RoutineFloor = (typeof ROUTINE_FLOORS)[number];

export const ROUTINES = [
  // Predicates written once, inlined by PostgreSQL into the statements that use them.
  { name: 'holds_expired', floor: 'predicate', file: 'src/domain/holds/holds_expired.sql', calls: [] },
  { name: 'holds_maturity_due', floor: 'predicate', file: 'src/domain/holds/holds_maturity_due.sql', calls: [] },
  { name: 'lots_live', floor: 'predicate', file: 'src/domain/lots/lots_live.sql', calls: [] },
  { name: 'lots_due', floor: 'predicate', file: 'src/domain/lots/lots_due.sql', calls: [] },
  // Events (CONTRACT §16): the outbox write and its numbering.
  { name: 'ledger_emit', floor: 'outbox', file: 'src/domain/outbox/ledger_emit.sql', calls: [] },
  // Program analytics (CONTRACT §23): the rollups ledger_sequence_events folds each numbered batch into.
  { name: 'analytics_apply', floor: 'rollup', file: 'src/domain/analytics/analytics_apply.sql', calls: [] },
  { name: 'analytics_fold', floor: 'rollup', file: 'src/domain/analytics/analytics_fold.sql', calls: ['analytics_apply'] },
  { name: 'analytics_rebuild', floor: 'rollup', file: 'src/domain/analytics/analytics_rebuild.sql', calls: [] },
  { name: 'ledger_sequence_events', floor: 'outbox', file: 'src/domain/outbox/ledger_sequence_events.sql', calls: ['analytics_fold'] },
  // Balance monitors (CONTRACT §20): judged by every routine below that changes a balance row.
  { name: 'monitors_crossed', floor: 'monitor', file: 'src/domain/monitors/monitors_crossed.sql', calls: [] },
  { name: 'monitors_record', floor: 'monitor', file: 'src/domain/monitors/monitors_record.sql', calls: ['ledger_emit'] },
  { name: 'monitors_changed', floor: 'monitor', file: 'src/domain/monitors/monitors_changed.sql', calls: ['monitors_crossed', 'monitors_record'] },
  // Wallet groups (CONTRACT §29): their running sums, kept around every batch that changes a grouped wallet's balances.
  { name: 'wallet_groups_watch', floor: 'effect', file: 'src/domain/wallet-groups/wallet_groups_watch.sql', calls: [] },
  { name: 'wallet_groups_roll', floor: 'effect', file: 'src/domain/wallet-groups/wallet_groups_roll.sql', calls: [] },
  { name: 'holds_release_expired', floor: 'effect', file: 'src/domain/holds/holds_release_expired.sql', calls: ['holds_expired', 'ledger_emit', 'monitors_changed'] },
  // Points that expire (CONTRACT §15): the lot rules, called by ledger_move, the hold verbs and the sweeper.
  { name: 'lots_expire_due', floor: 'effect', file: 'src/domain/lots/lots_expire_due.sql', calls: ['ledger_emit', 'lots_due', 'monitors_changed'] },
  { name: 'lots_release', floor: 'effect', file: 'src/domain/lots/lots_release.sql', calls: ['ledger_emit', 'lots_expire_due', 'monitors_changed'] },
  { name: 'lots_settle', floor: 'settle', file: 'src/domain/lots/lots_settle.sql', calls: ['holds_release_expired', 'lots_expire_due', 'lots_release'] },
  { name: 'lots_credit', floor: 'effect', file: 'src/domain/lots/lots_credit.sql', calls: [] },
  { name: 'lots_consume', floor: 'effect', file: 'src/domain/lots/lots_consume.sql', calls: ['lots_live'] },
  { name: 'lots_reserve', floor: 'effect', file: 'src/domain/lots/lots_reserve.sql', calls: ['lots_live'] },
  { name: 'lots_capture', floor: 'effect', file: 'src/domain/lots/lots_capture.sql', calls: [] },
  { name: 'lots_sweep', floor: 'entry', file: 'src/domain/lots/lots_sweep.sql', calls: ['lots_due', 'lots_settle', 'wallet_groups_roll', 'wallet_groups_watch'] },
  { name: 'holds_sweep', floor: 'entry', file: 'src/domain/holds/holds_sweep.sql', calls: ['holds_expired', 'holds_release_expired', 'lots_settle', 'wallet_groups_roll', 'wallet_groups_watch'] },
  // Spending and earning limits (CONTRACT §19): called by ledger_move and holds_create, and by the reads.
  { name: 'limits_applying', floor: 'effect', file: 'src/domain/limits/limits_applying.sql', calls: [] },
  { name: 'limits_window_used', floor: 'effect', file: 'src/domain/limits/limits_window_used.sql', calls: ['holds_expired'] },
  { name: 'limits_used', floor: 'effect', file: 'src/domain/limits/limits_used.sql', calls: ['limits_window_used'] },
  { name: 'limits_check', floor: 'settle', file: 'src/domain/limits/limits_check.sql', calls: ['holds_release_expired', 'limits_applying', 'limits_window_used'] },
  // Postings (CONTRACT §9–§13): ledger_post → ledger_apply → the routine of each request kind → ledger_move.
  {
    name: 'ledger_move', floor: 'move',
    file: 'src/domain/ledger/ledger_move.sql',
    calls: ['holds_release_expired', 'ledger_emit', 'limits_check', 'lots_capture', 'lots_consume', 'lots_credit', 'lots_release', 'lots_settle', 'monitors_crossed', 'monitors_record'],
  },
  { name: 'ledger_replay', floor: 'effect', file: 'src/domain/ledger/ledger_replay.sql', calls: [] },
  { name: 'ledger_reference_take', floor: 'effect', file: 'src/domain/ledger/ledger_reference_take.sql', calls: [] },
  { name: 'ledger_reverse', floor: 'verb', file: 'src/domain/ledger/ledger_reverse.sql', calls: ['ledger_move', 'ledger_reference_take'] },
  { name: 'holds_settle_refusal', floor: 'verb', file: 'src/domain/holds/holds_settle_refusal.sql', calls: ['holds_expired', 'holds_release_expired', 'lots_settle'] },
  {
    name: 'holds_create', floor: 'verb',
    file: 'src/domain/holds/holds_create.sql',
    calls: ['holds_release_expired', 'ledger_emit', 'ledger_reference_take', 'limits_check', 'lots_reserve', 'lots_settle', 'monitors_changed'],
  },
  { name: 'holds_capture', floor: 'verb', file: 'src/domain/holds/holds_capture.sql', calls: ['holds_settle_refusal', 'ledger_emit', 'ledger_move'] },
  { name: 'holds_void', floor: 'verb', file: 'src/domain/holds/holds_void.sql', calls: ['holds_settle_refusal', 'ledger_emit', 'lots_release', 'lots_settle', 'monitors_changed'] },
  // Pending credits (CONTRACT §26): a maturing hold's capture at its time, by the sweeper.
  { name: 'holds_mature', floor: 'verb', file: 'src/domain/holds/holds_mature.sql', calls: ['holds_capture', 'holds_maturity_due', 'holds_void', 'ledger_emit'] },
  { name: 'holds_mature_sweep', floor: 'entry', file: 'src/domain/holds/holds_mature_sweep.sql', calls: ['holds_mature', 'holds_maturity_due'] },
  {
    name: 'ledger_apply', floor: 'entry',
    file: 'src/domain/ledger/ledger_apply.sql',
    calls: ['holds_capture', 'holds_create', 'holds_void', 'ledger_move', 'ledger_reference_take', 'ledger_replay', 'ledger_reverse'],
  },
  { name: 'ledger_flush', floor: 'effect', file: 'src/domain/ledger/ledger_flush.sql', calls: [] },
  // Posting conditions (CONTRACT §28): judged by ledger_post after a request posted.
  { name: 'ledger_conditions', floor: 'effect', file: 'src/domain/ledger/ledger_conditions.sql', calls: ['holds_expired'] },
  { name: 'ledger_post', floor: 'entry', file: 'src/domain/ledger/ledger_post.sql', calls: ['ledger_apply', 'ledger_conditions', 'ledger_flush', 'wallet_groups_roll', 'wallet_groups_watch'] },
  // Inbound webhooks (CONTRACT §16): a flow's posting and its stored call in one statement.
  { name: 'webhook_post', floor: 'inbound', file: 'src/domain/webhook/webhook_post.sql', calls: ['ledger_post'] },
  { name: 'webhook_sequence_calls', floor: 'outbox', file: 'src/domain/webhook/webhook_sequence_calls.sql', calls: [] },
] as const satisfies readonly { name: string; floor: RoutineFloor; file: string; calls: readonly string[] }[];

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
 * Routines recorded as installed that no file defines any more (renamed or merged away, e.g.
 * ledger_release_expired, now holds_release_expired): the installer drops them, so a database
 * created by an older version runs no orphan.
 */
export function retiredRoutines(installed: Iterable<string>): string[] {
  const shipped = new Set<string>(ROUTINES.map((routine) => routine.name));
  return [...installed].filter((name) => !shipped.has(name));
}

/**
 * Drops the retired routines and installs every routine whose file changed since it was last
 * installed, all in one transaction with their records (one commit, so one WAL flush, where a routine each cost a flush each on a
 * fresh database). The caller holds the migration lock, so instances starting together take turns.
 */
export async function installRoutines(client: pg.PoolClient): Promise<{ installed: string[]; dropped: string[] }> {
  const { rows } = await client.query<{ name: string; sha256: string }>(`SELECT name, sha256 FROM db_routines`);
  const changed = changedRoutines(loadRoutines(), new Map(rows.map((row) => [row.name, row.sha256])));
  const retired = retiredRoutines(rows.map((row) => row.name));
  if (!changed.length && !retired.length) return { installed: [], dropped: [] };
  await client.query('BEGIN');
  try {
    for (const name of retired) {
      // every overload of the name, whatever its arguments were
      const { rows: overloads } = await client.query<{ signature: string }>(
        `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p WHERE p.proname = $1 AND p.pronamespace = current_schema()::regnamespace`,
        [name],
      );
      for (const { signature } of overloads) await client.query(`DROP FUNCTION ${signature}`);
      await client.query(`DELETE FROM db_routines WHERE name = $1`, [name]);
    }
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
  return { installed: changed.map((routine) => routine.name), dropped: retired };
}
