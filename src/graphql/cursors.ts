import { validationError } from '../domain/errors.js';

/**
 * Opaque Relay cursors. The oldest-first lists the services page by offset (projects, assets) use
 * an offset cursor; every newest-first list (holds, histories, a wallet's recent transactions) and
 * the keyset lists (wallets, webhook events) use the row's `seq` (issue 19: a row posted between
 * two pages then cannot repeat an item). Either way a client only hands back what it was given;
 * a cursor of the other kind is a validation_error.
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
