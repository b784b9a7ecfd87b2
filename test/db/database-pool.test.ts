import { openDatabase, type Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase } from '../support/database.js';

let db: Database;
beforeAll(async () => {
  db = await openDatabase(await createTestDatabase(), createLogger('silent'), 2);
});
afterAll(() => db.close());

/** pg.Pool keeps its settings here; pg's own default closes a connection idle for 10 s. */
const idleTimeout = (pool: unknown) => (pool as { options: { idleTimeoutMillis?: number } }).options.idleTimeoutMillis;

describe('openDatabase: pooled connections outlive a lull (a new backend is dearer for its first seconds)', () => {
  it('keeps request connections idle for minutes, not pg’s 10 s', async () => {
    await db.pool.query('SELECT 1');
    expect(idleTimeout(db.pool)).toBeGreaterThanOrEqual(60_000);
    expect(db.pool.idleCount).toBe(1);
  });

  it('keeps background connections idle for minutes too', async () => {
    await db.background.query('SELECT 1');
    expect(idleTimeout(db.background)).toBeGreaterThanOrEqual(60_000);
    expect(db.background.idleCount).toBeGreaterThanOrEqual(1); // 2 when start-up warmed it (openDatabase)
  });
});
