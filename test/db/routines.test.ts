import pg from 'pg';
import { loadRoutines, ROUTINE_FLOORS, ROUTINES } from '../../src/db/routines.js';
import { createTestDatabase } from '../support/database.js';

/**
 * The posting rules live once, in src/domain/ledger/ledger_post.sql. A freshly migrated database
 * must run exactly that text: a migration that installs another copy, or a file edited without
 * the installer picking it up, fails here.
 */
let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
afterAll(() => client.end());

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

describe('database routines', () => {
  it.each(loadRoutines().map((r) => [r.name, r] as const))('%s in a migrated database is the one in its file', async (name, routine) => {
    const { rows } = await client.query<{ def: string; args: string; body: string }>(
      `SELECT pg_get_functiondef(p.oid) AS def, pg_get_function_arguments(p.oid) AS args, p.prosrc AS body
         FROM pg_proc p WHERE p.proname = $1`,
      [name],
    );
    expect(rows).toHaveLength(1); // no stale overload left behind by an older signature
    const [{ def, args, body }] = rows;
    const declared = new RegExp(`CREATE OR REPLACE FUNCTION ${name}\\(([\\s\\S]*?)\\)\\s*RETURNS`).exec(routine.sql);
    const fileBody = /AS \$fn\$([\s\S]*)\$fn\$/.exec(routine.sql);
    expect(declared && fileBody).toBeTruthy();
    expect(squash(args)).toBe(squash(declared![1]));
    expect(body).toBe(fileBody![1]);
    expect(def).toContain(body);
    const recorded = await client.query<{ sha256: string }>(`SELECT sha256 FROM db_routines WHERE name = $1`, [name]);
    expect(recorded.rows[0]?.sha256).toBe(routine.sha256);
  });
});

/**
 * The routines a routine's SQL text calls: every `name(` whose name starts like a routine's
 * (ledger_, holds_, lots_, …), outside comments and DROP FUNCTION lines, and not a table named
 * after INTO / TABLE (`INSERT INTO ledger_references (…)`) nor its own definition. A call of a
 * name no file defines any more (a renamed routine) is found too, and fails the map below.
 */
function callsIn(sql: string, self: string): string[] {
  const prefixes = new Set(ROUTINES.map((routine) => routine.name.split('_')[0]));
  const code = sql.replace(/--[^\n]*/g, '').replace(/^DROP FUNCTION[^\n]*$/gm, '');
  const calls = new Set<string>();
  for (const [, keyword, name] of code.matchAll(/(?<![\w.])(INTO\s+|TABLE\s+|FUNCTION\s+)?([a-z]+_\w+)\s*\(/gi)) {
    if (!keyword && name !== self && prefixes.has(name.split('_')[0])) calls.add(name);
  }
  return [...calls].sort();
}

describe('the routines map (src/db/routines.ts)', () => {
  const order = new Map<string, number>(ROUTINES.map((routine, i) => [routine.name, i]));

  it.each(loadRoutines().map((r) => [r.name, r] as const))('%s calls exactly the routines the map lists for it', (name, routine) => {
    const listed = ROUTINES.find((r) => r.name === name)!.calls;
    expect(callsIn(routine.sql, name)).toEqual([...listed].sort());
  });

  it('lists only routines it installs, each after the routines it calls', () => {
    for (const routine of ROUTINES) {
      for (const callee of routine.calls) {
        expect({ caller: routine.name, callee, installed: order.has(callee) }).toEqual({ caller: routine.name, callee, installed: true });
        expect({ caller: routine.name, callee, before: order.get(callee)! < order.get(routine.name)! }).toEqual({ caller: routine.name, callee, before: true });
      }
    }
  });

  it('a migrated database has exactly these routines: no orphan of an older version', async () => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT p.proname AS name FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace ORDER BY 1`,
    );
    expect(rows.map((r) => r.name)).toEqual(ROUTINES.map((r) => r.name).sort());
    const recorded = await client.query<{ name: string }>(`SELECT name FROM db_routines ORDER BY 1`);
    expect(recorded.rows.map((r) => r.name)).toEqual(ROUTINES.map((r) => r.name).sort());
  });
});


/**
 * The floors of the routines (ROUTINE_FLOORS): every call read out of the SQL (callsIn) goes to a
 * lower floor, or stays on its floor within its feature (the folder of the file). The report lists
 * each call that runs up or across, so a failure names it.
 */
describe('the floors of the routines', () => {
  const byName = new Map<string, (typeof ROUTINES)[number]>(ROUTINES.map((routine) => [routine.name, routine]));
  const level = (name: string): number => ROUTINE_FLOORS.indexOf(byName.get(name)!.floor);
  const feature = (name: string): string => byName.get(name)!.file.split('/')[2];

  /** Each call that runs up a floor or across to another feature of its floor. */
  function violations(calls: { caller: string; callee: string }[]): string[] {
    return calls.flatMap(({ caller, callee }) => {
      if (level(callee) > level(caller)) return [`${caller} (${byName.get(caller)!.floor}) calls up to ${callee} (${byName.get(callee)!.floor})`];
      if (level(callee) === level(caller) && feature(callee) !== feature(caller)) return [`${caller} calls across to ${callee} (${feature(callee)}) on its floor`];
      return [];
    });
  }

  const calls = loadRoutines().flatMap((routine) => callsIn(routine.sql, routine.name).map((callee) => ({ caller: routine.name, callee })));

  it('no routine calls a routine on a floor above its own, or another feature on its own floor', () => {
    expect(calls.length).toBeGreaterThan(40); // the calls were read (a reader that found none would find no violation)
    expect(violations(calls)).toEqual([]);
  });

  it('the rule finds a call that runs up or across', () => {
    expect(violations([{ caller: 'lots_settle', callee: 'ledger_move' }, { caller: 'lots_settle', callee: 'limits_check' }, { caller: 'ledger_move', callee: 'limits_check' }])).toEqual([
      'lots_settle (settle) calls up to ledger_move (move)',
      'lots_settle calls across to limits_check (limits) on its floor',
    ]);
  });
});
