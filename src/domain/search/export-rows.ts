import { Readable } from 'node:stream';
import pg from 'pg';
import { toHistory, type RawHistory } from '../ledger/ledger.sql.js';
import type { HistoryRow } from '../ledger/ledger.types.js';

/** Rows fetched per round trip of an export's cursor: what it holds in memory at most, besides the socket's buffer. */
export const EXPORT_BATCH = 500;

/** The SQL cursor an export's transaction declares (one per connection and transaction). */
export const EXPORT_CURSOR = 'export_rows';

/** timestamptz as Date on the export's connection (the pool keeps them as text for the ORM). */
const EXPORT_TYPES = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.TIMESTAMPTZ && format !== 'binary' ? (value: string) => new Date(value) : pg.types.getTypeParser(oid, format),
};

/**
 * An export's rows: `FETCH`es of the transaction's cursor, EXPORT_BATCH at a time as the
 * consumer asks for them (back-pressure). Each FETCH is a statement of its own, so between two of
 * them the backend is idle in transaction and the transaction's idle_in_transaction_session_timeout
 * cuts a consumer that stopped (a protocol-level portal — pg-query-stream's — leaves the backend
 * "active" between batches, out of reach of any time-out), and each FETCH meets the request
 * connections' statement time-out.
 *
 * The connection is given back exactly once, whatever happens (`onReleased` then runs): at the
 * end, after COMMIT; destroyed early (the client went away, stopped reading, the instance shuts
 * down), after ROLLBACK, whole — once the FETCH in flight, if any, has returned (a statement of
 * the request connections: the statement time-out bounds it); when a statement or the connection
 * failed, discarded (its backend ends, the cursor with it).
 */
export class ExportRows extends Readable {
  /** A statement (FETCH, COMMIT) is running on the connection. */
  #inFlight = false;
  /** A statement failed or the connection did: it is discarded rather than given back. */
  #broken = false;
  #released = false;
  readonly #lost = (error: Error) => {
    this.#broken = true;
    this.destroy(error);
  };

  constructor(
    private readonly client: pg.PoolClient,
    private readonly onReleased: () => void,
  ) {
    super({ objectMode: true, highWaterMark: EXPORT_BATCH });
    // the backend ended between statements (the idle-in-transaction time-out above all)
    client.on('error', this.#lost);
  }

  override _read(): void {
    if (this.#inFlight || this.#released) return;
    this.#inFlight = true;
    this.#fetch().catch((error: Error) => {
      this.#inFlight = false;
      this.#broken = true;
      if (this.destroyed) this.#release(error);
      else this.destroy(error);
    });
  }

  async #fetch(): Promise<void> {
    const { rows } = await this.client.query<RawHistory>({ text: `FETCH ${EXPORT_BATCH} FROM ${EXPORT_CURSOR}`, types: EXPORT_TYPES });
    this.#inFlight = false;
    if (this.destroyed) return this.#rollBack(); // cut while the FETCH ran: _destroy left the connection to us
    if (rows.length === 0) {
      this.#inFlight = true;
      await this.client.query('COMMIT');
      this.#inFlight = false;
      this.#release();
      this.push(null);
      return;
    }
    for (const raw of rows) this.push(toHistory(raw) satisfies HistoryRow);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // with a statement in flight, its settling gives the connection back (#fetch, or _read's catch)
    if (!this.#released && !this.#inFlight) {
      if (this.#broken) this.#release(error ?? new Error('export connection failed'));
      else void this.#rollBack();
    }
    callback(error);
  }

  #rollBack(): Promise<void> {
    return this.client.query('ROLLBACK').then(
      () => this.#release(),
      (rollbackError: Error) => this.#release(rollbackError),
    );
  }

  /** Back to the pool (whole, or discarded with `broken`), once. */
  #release(broken?: Error): void {
    if (this.#released) return;
    this.#released = true;
    this.client.removeListener('error', this.#lost);
    this.client.release(broken);
    this.onReleased();
  }
}
