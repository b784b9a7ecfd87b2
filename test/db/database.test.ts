import { openDatabase, type Database } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { createTestDatabase } from '../support/database.js';

/**
 * openDatabase opens the background pool's first connections while the ORM starts, so that the
 * first background queries of a start-up (the migrations check, the workers' first reads) wait
 * for no connection handshake of their own (src/db/database.ts).
 */
let db: Database | undefined;

afterEach(async () => {
  await db?.close();
  db = undefined;
});

describe('openDatabase', () => {
  it('returns with two background connections open and idle, none of them used', async () => {
    db = await openDatabase(await createTestDatabase(), createLogger('silent'), 5);
    expect(db.background.totalCount).toBe(2);
    expect(db.background.idleCount).toBe(2);
  });

  it('opens no more background connections than the pool may hold', async () => {
    db = await openDatabase(await createTestDatabase(), createLogger('silent'), 1);
    expect(db.background.totalCount).toBe(1);
  });

  it("parses the background pool's rows with the ORM pool's types (timestamps as text, as before)", async () => {
    db = await openDatabase(await createTestDatabase(), createLogger('silent'), 2);
    const { rows } = await db.background.query<{ at: unknown; n: unknown }>(`SELECT TIMESTAMPTZ '2026-11-27 06:00:00+00' AS at, 7::bigint AS n`);
    const { rows: ormRows } = await db.pool.query<{ at: unknown; n: unknown }>(`SELECT TIMESTAMPTZ '2026-11-27 06:00:00+00' AS at, 7::bigint AS n`);
    expect(rows[0]).toEqual(ormRows[0]);
    expect(typeof rows[0]!.at).toBe('string');
  });

  it('runs every connection with JIT off, the ORM\'s and the background pool\'s alike (set at start-up, no statement of its own)', async () => {
    db = await openDatabase(await createTestDatabase(), createLogger('silent'), 2);
    const [request] = await db.query<{ jit: string }>('SHOW jit', []);
    const { rows: background } = await db.background.query<{ jit: string }>('SHOW jit');
    const ormRows = await db.orm.em.fork().getConnection().execute<{ jit: string }[]>('SHOW jit');
    expect({ request: request.jit, background: background[0].jit, orm: ormRows[0].jit }).toEqual({ request: 'off', background: 'off', orm: 'off' });
  });
});
