/**
 * What a field whose statement does not scale with the page it returns costs in the GraphQL cost
 * budget (cost-walk.ts), on top of its page and selection, each time it appears in a document
 * (aliases and fragment spreads included). CONTRACT §18: "a search, export-sized connection or
 * analytics field costs … at least as much as the statements it runs".
 *
 * The unit is the cost model's: about one object materialised, the benchmark query (cost 2,903)
 * holding request connections ≈ 14–18 µs per unit. Measured in those units
 * (bench/graphql/cost-weights.bench.ts, bench/results/2026-12-07-cost-weights.txt; the reasons
 * and the rejected alternatives in docs/decisions/graphql-cost-expensive-fields.md), on projects
 * of 10,000 and 100,000 transactions: a search one of its indexes serves ≈ 85–1,740; one that
 * reads the project's rows until enough match (an amount or currency filter alone) ≈ 3,500–6,400
 * at 10,000 and ≈ 11,700–37,000 at 100,000, growing with the project until the statement
 * time-out cuts it; program analytics (one statement over the rollups) ≈ 210–1,500.
 *
 * Keyed by the field's return type, so that every field returning a search connection or
 * analytics (today `Project.transactions`, `Project.analytics`) pays it, whatever its name.
 */
export type StatementWeight = (args: Record<string, unknown>) => number;

/** A search one of the transaction indexes serves: 4 fit the default budget of 10,000, 5 do not. */
export const SEARCH_COST = 2_000;

/**
 * A search whose filters only narrow rows read from the project's date order (amount bounds, the
 * currency): it reads until `first + 1` rows match, the whole project when few do. Half the
 * default budget: one such search per document. It underprices a project past ≈ 10,000
 * transactions; there the statement time-out and the 4 connections a request may hold bound it.
 */
export const SCAN_COST = 5_000;

/** Program analytics over up to 400 buckets. */
export const ANALYTICS_COST = 2_000;

export const STATEMENT_WEIGHTS: Readonly<Record<string, StatementWeight>> = {
  TransactionSearchConnection: ({ filter }) => (scansProject(filter) ? SCAN_COST : SEARCH_COST),
  ProgramAnalytics: () => ANALYTICS_COST,
};

/** Filters an index finds rows by (src/domain/search/transaction-search.repository.ts, `conditions`). */
const INDEXED: readonly string[] = ['walletId', 'from', 'to', 'reference', 'referencePrefix', 'reverses', 'metadata'];
/** Filters checked on each row the scan reads. */
const ROW_CHECKS: readonly string[] = ['minAmount', 'maxAmount', 'currency'];

function scansProject(filter: unknown): boolean {
  if (filter === null || typeof filter !== 'object') return false;
  const fields = filter as Record<string, unknown>;
  const given = (name: string) => fields[name] !== null && fields[name] !== undefined && !(Array.isArray(fields[name]) && fields[name].length === 0);
  return ROW_CHECKS.some(given) && !INDEXED.some(given);
}
