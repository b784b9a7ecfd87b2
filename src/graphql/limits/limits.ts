/**
 * What one GraphQL operation may ask for. Every limit is checked before execution, so a refused
 * operation never reaches the database. The cost model is in cost.ts.
 */
export interface GraphQLLimits {
  /** Deepest field nesting, fragments followed (the benchmark query is 8 deep). */
  maxDepth: number;
  /** Aliased fields in the whole document. */
  maxAliases: number;
  /** Cost budget of one operation (see cost.ts). */
  maxCost: number;
  /** Lexical tokens of the document; refused by the parser, before validation. */
  maxTokens: number;
  /** Largest `first` of any connection: REST's largest `limit`, which the services enforce too. */
  maxPageSize: number;
}

export const DEFAULT_LIMITS: GraphQLLimits = {
  maxDepth: 12,
  maxAliases: 30,
  maxCost: 10_000,
  maxTokens: 5_000,
  maxPageSize: 100,
};

/**
 * The defaults, with `LEDGER_GRAPHQL_MAX_COST` as an operator override of the cost budget (the
 * measurement test raises it to read 1,000 wallets through _entities at once). Depth and alias
 * limits are fixed by the contract.
 */
export function graphQLLimits(env: Record<string, string | undefined> = process.env): GraphQLLimits {
  return { ...DEFAULT_LIMITS, maxCost: positive(env, 'LEDGER_GRAPHQL_MAX_COST', DEFAULT_LIMITS.maxCost) };
}

function positive(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw new Error(`invalid configuration: ${name} must be a positive integer, got "${raw}"`);
  return Number(raw);
}
