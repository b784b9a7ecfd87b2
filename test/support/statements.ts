/**
 * The SQL statements a request cost for what it asked (`x-sql-statements` minus
 * `x-sql-admission-statements`). Its admission is left out: the key cache (5 s) and the call
 * quota's view (a round, up to 5 s) refresh on whichever request finds them stale, so whether a
 * request pays for that depends on the clock, not on what the request did (src/db/statement-counter.ts).
 */
export function statementsOf(res: { headers: { get(name: string): string | null } }): number {
  const total = res.headers.get('x-sql-statements');
  const admission = res.headers.get('x-sql-admission-statements');
  if (total === null || admission === null) throw new Error('no x-sql-statements header (exposeStatementCount off?)');
  return Number(total) - Number(admission);
}
