import { Kind, parse, type OperationDefinitionNode, type ValueNode } from 'graphql';

/**
 * Whether a GraphQL request body is a mutation whose every top-level field is a dry run
 * (`dryRun: true`, written in the document or given as a variable): such a request writes
 * nothing, so an `Idempotency-Key` header on it claims and stores nothing (CONTRACT §24
 * clarification) — decided before any claim, as for a REST dry run. Anything else (a query, a real
 * mutation beside dry runs, a body that does not parse) is not: the request keeps its key, and the
 * endpoint answers what is wrong with it. Read only when the header is there.
 */
export function isDryRunOnly(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const { query, operationName, variables } = body as { query?: unknown; operationName?: unknown; variables?: unknown };
  if (typeof query !== 'string') return false;
  let operation: OperationDefinitionNode | undefined;
  try {
    const operations = parse(query, { noLocation: true }).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    operation = typeof operationName === 'string' ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  } catch {
    return false;
  }
  if (operation?.operation !== 'mutation') return false;
  const values = typeof variables === 'object' && variables !== null ? (variables as Record<string, unknown>) : {};
  const isTrue = (value: ValueNode | undefined): boolean =>
    value?.kind === Kind.BOOLEAN ? value.value : value?.kind === Kind.VARIABLE ? values[value.name.value] === true : false;
  const fields = operation.selectionSet.selections;
  return fields.length > 0 && fields.every((field) => field.kind === Kind.FIELD && field.name.value !== '__typename' && isTrue(field.arguments?.find((a) => a.name.value === 'dryRun')?.value));
}
