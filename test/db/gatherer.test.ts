import { openDatabase, type Database } from '../../src/db/database.js';
import { Gatherer } from '../../src/db/gatherer.js';
import { withStatementScope } from '../../src/db/statement-counter.js';
import { isStatementCut } from '../../src/domain/shared/error-translation.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase } from '../support/database.js';

let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createTestDatabase(), createLogger('silent'), 2, { statementTimeoutMs: 100 });
});
afterAll(() => db.close());

/** A gathered read whose statement outlasts the time-out whatever its keys; records the keys of each statement. */
function slowReads(splits?: (error: unknown) => boolean) {
  const statements: number[][] = [];
  const gatherer = new Gatherer<number, number>(
    async (keys) => {
      statements.push(keys);
      await db.query('SELECT pg_sleep(5)');
      return keys;
    },
    { inFlight: 1, max: 10, splits },
  );
  // the first key runs at once; the next three gather behind it into one statement
  const loads = withStatementScope({ statements: 0 }, () => [1, 2, 3, 4].map((k) => gatherer.load(k).then(() => 'read', (error: unknown) => (error as { code?: string }).code)));
  return { statements, loads: Promise.all(loads) };
}

describe('Gatherer: a batch cut by the statement time-out', () => {
  it('fails every key of the batch at once when `splits` says the error is the whole batch’s', async () => {
    const { statements, loads } = slowReads((error) => !isStatementCut(error));
    expect(await loads).toEqual(['57014', '57014', '57014', '57014']);
    expect(statements).toEqual([[1], [2, 3, 4]]);
  });

  it('goes again key by key otherwise (one bad key fails alone)', async () => {
    const { statements, loads } = slowReads();
    expect(await loads).toEqual(['57014', '57014', '57014', '57014']);
    expect(statements).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });
});
