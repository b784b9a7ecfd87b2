import { openDatabase, type Database } from '../../src/db/database.js';
import { minorToDecimalSql, minorToDecimalString } from '../../src/domain/money.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase } from '../support/database.js';

/** The SQL plans print amounts with minorToDecimalSql; REST and the resolvers with minorToDecimalString. */
let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createTestDatabase(), createLogger('silent'), 2);
});
afterAll(() => db.close());

const MAX = 2n ** 63n - 1n;
const AMOUNTS = [0n, 1n, 5n, 10n, 100n, 1250n, 1_000_000n, 123_456_789n, 10n ** 18n, 10n ** 18n + 1n, 2n ** 53n - 1n, 2n ** 53n + 1n, MAX - 1n, MAX];

describe('minorToDecimalSql', () => {
  it('prints every amount, in every number of fractions (0 to 18), exactly as minorToDecimalString', async () => {
    const cases = AMOUNTS.flatMap((amount) => Array.from({ length: 19 }, (_, fractions) => ({ amount, fractions })));
    const rows = await db.query<{ text: string }>(
      `SELECT ${minorToDecimalSql('x.amount', 'x.fractions')} AS text
         FROM unnest($1::bigint[], $2::smallint[]) WITH ORDINALITY AS x(amount, fractions, i) ORDER BY x.i`,
      [cases.map((c) => c.amount.toString()), cases.map((c) => c.fractions)],
    );
    expect(rows.map((row) => row.text)).toEqual(cases.map((c) => minorToDecimalString(c.amount, c.fractions)));
    expect(rows).toHaveLength(AMOUNTS.length * 19);
  });
});
