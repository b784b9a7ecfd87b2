import { getVariableValues, Kind, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { collectFields } from 'graphql/execution/collectFields.js';
import { PlanContext, Unplannable, unplannable, type PlanRequest } from './plan-context.js';
import { rootSql } from './roots.js';

export type { PlanRequest } from './plan-context.js';

/** One statement whose single column `data` is the operation's whole `data` as compact JSON text (NULL: answer with resolvers). */
export interface SqlPlan {
  sql: string;
  params: unknown[];
}

/**
 * Compiles a read-only operation over Project → wallets → balances / recent transactions (and
 * the `wallet` and `wallets` roots, and federation's `_entities` of Wallets) into ONE SQL statement in which PostgreSQL builds the JSON
 * of the answer, as a hand-written query would: no rows to decode, no objects to map, no field
 * to resolve in Node. The SQL reuses the repositories' fragments (which wallets, which
 * currencies, which transactions) and the money module's conversion, so both paths read the
 * same rows and print the same values; a differential test holds them equal.
 *
 * Only the happy path is planned. A field outside the subset, an argument the resolvers would
 * refuse, variables that do not coerce, or a root that is not found (another owner's, say)
 * give `null` here or a NULL `data` from the statement — and the resolvers answer, with their
 * errors. The field selection follows graphql-js's own collection (aliases, fragments,
 * @skip/@include), so the JSON keys come in the order GraphQL would print them.
 */
export function planQuery(request: PlanRequest): SqlPlan | null {
  try {
    return plan(request);
  } catch (error) {
    if (error instanceof Unplannable) return null;
    throw error;
  }
}

/** The document's one query operation (the one named, or the only one), else not plannable. */
function operationOf(request: PlanRequest): { operation: OperationDefinitionNode; fragments: Record<string, FragmentDefinitionNode> } {
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  const operations: OperationDefinitionNode[] = [];
  for (const definition of request.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    else if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  const name = request.operationName;
  const chosen = name ? operations.filter((op) => op.name?.value === name) : operations;
  if (chosen.length !== 1 || chosen[0].operation !== 'query') unplannable();
  return { operation: chosen[0], fragments };
}

function coercedVariables(request: PlanRequest, operation: OperationDefinitionNode): Record<string, unknown> {
  const coerced = getVariableValues(request.schema, operation.variableDefinitions ?? [], request.variables ?? {}, { maxErrors: 1 });
  if (coerced.errors) unplannable();
  return coerced.coerced!;
}

function plan(request: PlanRequest): SqlPlan {
  const { schema } = request;
  const { operation, fragments } = operationOf(request);
  const variables = request.coercedVariables ?? coercedVariables(request, operation);
  const ctx = new PlanContext(request, fragments, variables);
  const queryType = schema.getQueryType()!;
  const roots = collectFields(schema, fragments, variables, queryType, operation.selectionSet);
  // The roots' existence first (primary-key lookups): a root not found sends the operation to
  // the resolvers, and CASE then builds none of the others for nothing.
  const exists: string[] = [];
  const data = ctx.object(queryType, roots, (name, nodes) => {
    const root = rootSql(ctx, name, nodes);
    exists.push(root.exists);
    return root.json;
  });
  const sql = exists.length ? `SELECT CASE WHEN ${exists.join(' AND ')} THEN ${data} END AS data` : `SELECT ${data} AS data`;
  return { sql, params: ctx.params };
}
