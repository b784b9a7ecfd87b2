/**
 * SQL expressions that print JSON values exactly as the GraphQL scalars do (see scalars.ts and
 * cursors.ts), for the answers PostgreSQL builds (planner.ts).
 */

/** A string constant; GraphQL names and our own constants only, but quoted properly all the same. */
export const literalSql = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** DateTime: ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString` (columns are timestamptz(3)). */
export const isoTimeSql = (timestamp: string): string => `to_char((${timestamp}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A keyset cursor, as encodeCursor('seq', seq): base64url of "seq:<seq>", no padding; NULL stays NULL. */
export const seqCursorSql = (seq: string): string => `translate(encode(convert_to('seq:' || (${seq})::text, 'UTF8'), 'base64'), '+/=', '-_')`;

/** PostgreSQL functions take at most 100 arguments: a json_build_object of up to 50 keys. */
const MAX_KEYS = 50;

/** `json_build_object` with the keys in the given order (json, unlike jsonb, keeps it); null when too many keys. */
export function jsonObjectSql(entries: readonly (readonly [key: string, value: string])[]): string | null {
  if (entries.length > MAX_KEYS) return null;
  return `json_build_object(${entries.map(([key, value]) => `${literalSql(key)}, ${value}`).join(', ')})`;
}
