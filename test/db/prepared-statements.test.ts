import pg from 'pg';
import { limitPreparedStatements, MAX_PREPARED_PER_CONNECTION } from '../../src/db/prepared-statements.js';
import { createTestDatabase } from '../support/database.js';

/**
 * Names of generated plans come and go (src/graphql/sql-plan/prepared.ts never gives a name to
 * another text): each stays prepared on the connections that ran it until they drop it.
 */
describe('a pooled connection’s prepared statements (CONTRACT §18, memory bounded)', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await createTestDatabase(), max: 1 });
    pool.on('acquire', limitPreparedStatements);
  });
  afterAll(() => pool.end());

  const prepared = async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM pg_prepared_statements')).rows[0].n);

  it('are dropped at a checkout once past the bound, then prepared again as they are used', async () => {
    for (let i = 0; i < 3 * MAX_PREPARED_PER_CONNECTION; i++) {
      const { rows } = await pool.query<{ i: number }>({ name: `plan_${i}`, text: `SELECT ${i}::int AS i` });
      expect(rows).toEqual([{ i }]);
      expect(await prepared()).toBeLessThanOrEqual(MAX_PREPARED_PER_CONNECTION + 1);
    }
    // a name the connection dropped works again, as does one it still holds
    const again = await pool.query<{ i: number }>({ name: 'plan_0', text: 'SELECT 0::int AS i' });
    expect(again.rows).toEqual([{ i: 0 }]);
    const last = 3 * MAX_PREPARED_PER_CONNECTION - 1;
    expect((await pool.query<{ i: number }>({ name: `plan_${last}`, text: `SELECT ${last}::int AS i` })).rows).toEqual([{ i: last }]);
  });

  it('are kept while under the bound: a name used again is not prepared again', async () => {
    const client = await pool.connect();
    const before = await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_prepared_statements');
    client.release();
    for (let i = 0; i < 5; i++) await pool.query({ name: 'steady', text: 'SELECT 1 AS one' });
    expect(await prepared()).toBeLessThanOrEqual(Number(before.rows[0].n) + 1);
  });
});
