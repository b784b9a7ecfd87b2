import pg from 'pg';
import { pendingIncoming } from '../../../src/domain/ledger/ledger.sql.js';
import { createTestDatabase } from '../../support/database.js';

/**
 * `incoming` (CONTRACT §26) is read, not stored: one descent of holds_incoming_idx per balance
 * entry, whatever the wallet's history of holds (docs/decisions/pending-credits.md). Sequential
 * scans are turned off so that the tiny test table shows the plan a large one gets.
 */
let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: await createTestDatabase() });
  await client.connect();
});
afterAll(() => client.end());

it("descends holds_incoming_idx, the receiver's pending holds only", async () => {
  await client.query('SET enable_seqscan = off');
  const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) SELECT ${pendingIncoming('$1::int', '$2::uuid', '$3::uuid')} AS incoming`,
    [1, '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'],
  );
  const plan = JSON.stringify(rows[0]['QUERY PLAN']);
  expect(plan).toContain('"Index Name":"holds_incoming_idx"');
  expect(plan).toContain('Index Only Scan');
});
