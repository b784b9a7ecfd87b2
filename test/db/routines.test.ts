import pg from 'pg';
import { loadRoutines } from '../../src/db/routines.js';
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
