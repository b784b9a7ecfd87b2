import type { ValidationRule } from 'graphql';
import { aliasLimitRule } from './alias-limit.rule.js';
import { depthLimitRule } from './depth-limit.rule.js';
import { operationTypeRule, type Transport } from './operation-type.rule.js';
import { selectionLimitRule } from './selection-limit.rule.js';
import { storableTextRule } from './storable-text.rule.js';

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
  /**
   * Selections of the whole document with every fragment spread expanded (selection-limit.rule.ts),
   * refused before graphql's validation walks it (some of its rules are quadratic in it): twice
   * the standard introspection query (230).
   */
  maxSelections: number;
  /** Largest `first` of any connection: REST's largest `limit`, which the services enforce too. */
  maxPageSize: number;
}

export const DEFAULT_LIMITS: GraphQLLimits = {
  maxDepth: 12,
  maxAliases: 30,
  maxCost: 10_000,
  maxTokens: 5_000,
  maxSelections: 250,
  maxPageSize: 100,
};

/** The defaults, with the operator's cost budget (config: LEDGER_GRAPHQL_MAX_COST); depth and aliases are fixed by the contract. */
export function graphQLLimits(maxCost: number = DEFAULT_LIMITS.maxCost): GraphQLLimits {
  return { ...DEFAULT_LIMITS, maxCost };
}

/** The validation rules every GraphQL document passes before execution, whatever its transport. */
export function limitRules(limits: GraphQLLimits, transport: Transport): ValidationRule[] {
  return [selectionLimitRule(limits.maxSelections), depthLimitRule(limits.maxDepth), aliasLimitRule(limits.maxAliases), operationTypeRule(transport), storableTextRule];
}
