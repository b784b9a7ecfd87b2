/**
 * Mutations' input fields the SDL declares nullable: a client may send `null` for one, which
 * means "not given" (the domain default applies, or the field stays unchanged), exactly as if
 * the field were absent. Shallow: a null inside a JSON value (e.g. `metadata`) is data and stays.
 */
export type WithoutNulls<T extends object> = { [K in keyof T]: Exclude<T[K], null> };

export function withoutNulls<T extends object>(input: T): WithoutNulls<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined)) as WithoutNulls<T>;
}
