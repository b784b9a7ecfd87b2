import { validationError } from '../domain/errors.js';

/**
 * Opaque Relay cursors. Lists the services page by offset (projects, assets, wallets, a wallet's
 * history by page) use an offset cursor; lists read by keyset (recent transactions of a wallet,
 * webhook events) use the row's `seq`. Either way a client only hands back what it was given.
 */
type CursorKind = 'offset' | 'seq';

export function encodeCursor(kind: CursorKind, value: number | string): string {
  return Buffer.from(`${kind}:${value}`, 'utf8').toString('base64url');
}

/** The value of an `after` cursor, or null when absent; a cursor of another kind or malformed is a validation_error. */
export function decodeCursor(kind: CursorKind, cursor: string | null | undefined, field = 'after'): string | null {
  if (cursor === null || cursor === undefined) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const value = text.startsWith(`${kind}:`) ? text.slice(kind.length + 1) : '';
  if (!/^\d{1,18}$/.test(value)) throw validationError(field, 'is not a cursor of this list');
  return value;
}

/** Position after which an offset-paged list continues (0 without cursor). */
export function offsetAfter(cursor: string | null | undefined): number {
  const value = decodeCursor('offset', cursor);
  return value === null ? 0 : Number(value) + 1;
}
