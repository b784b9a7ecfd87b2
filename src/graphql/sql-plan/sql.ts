/**
 * SQL expressions that print JSON text exactly as the resolvers' answers print: compact, as
 * `JSON.stringify` writes it (PostgreSQL's json functions put spaces around `:` and after `,`),
 * and scalars as the GraphQL scalars print them (see scalars.ts and cursors.ts). Every
 * expression here is `text` holding one JSON value, never NULL. PostgreSQL escapes strings as
 * JSON.stringify does: `"` and `\`, \b \f \n \r \t, other control characters as \u00xx.
 */

/** A string constant; GraphQL names and our own constants only, but quoted properly all the same. */
export const literalSql = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** Any SQL value as JSON text: strings quoted and escaped, numbers and booleans bare, NULL as null. */
export const jsonValueSql = (expression: string): string => `coalesce(to_json(${expression})::text, 'null')`;

/**
 * A JSON string of a value that is never NULL and whose text needs no escaping (a uuid, an
 * integer, a decimal, an ISO time, a GraphQL name): PostgreSQL runs these per row and field, and
 * quoting costs much less than `to_json` plus `coalesce` (bench/results/2026-11-27-reads.txt).
 * Never for a nullable value: a NULL would blank the whole object, or drop it from an array.
 */
export const jsonPlainStringSql = (expression: string): string => `('"' || (${expression})::text || '"')`;

/** A text that is never NULL as a JSON string (escaped by `to_json`, without `coalesce`). */
export const jsonTextSql = (expression: string): string => `to_json(${expression})::text`;

/** An object with the keys in the given order; each value is JSON text. */
export function jsonObjectSql(entries: readonly (readonly [key: string, value: string])[]): string {
  if (entries.length === 0) return `'{}'`;
  const parts = entries.map(([key, value], i) => `${literalSql(`${i === 0 ? '{' : ','}${JSON.stringify(key)}:`)} || ${value}`);
  return `(${parts.join(' || ')} || '}')`;
}

/** An array of the aggregated rows' `element` (JSON text) in `orderBy` order, optionally filtered; `[]` for none. */
export const jsonArraySql = (element: string, orderBy: string, filter = ''): string =>
  `('[' || coalesce(string_agg(${element}, ',' ORDER BY ${orderBy}) ${filter}, '') || ']')`;

/** DateTime: ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString` (columns are timestamptz(3)). */
export const isoTimeSql = (timestamp: string): string => `to_char((${timestamp}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A keyset cursor, as encodeCursor('seq', seq): base64url of "seq:<seq>", no padding; NULL stays NULL. */
export const seqCursorSql = (seq: string): string => `translate(encode(convert_to('seq:' || (${seq})::text, 'UTF8'), 'base64'), '+/=', '-_')`;
