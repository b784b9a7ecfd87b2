import {
  getDirectiveValues,
  getNamedType,
  getNullableType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import { STATEMENT_WEIGHTS } from './statement-weights.js';

/**
 * The cost model: roughly the number of objects an operation can materialise.
 *
 * - a scalar or enum field costs 0 (it is read from an object already loaded), except a
 *   connection's `totalCount` (below);
 * - an object field costs 1 + the cost of its selection;
 * - a connection (a field with a `first` argument) costs 1 + first × the cost of its selection
 *   (at least 1 an item: its statement reads the page whatever is selected of it), plus
 *   COUNT_COST when `totalCount` is selected: the count is one more read of the whole list, made
 *   once whatever `first` is (first: 0 still counts);
 * - a field whose statement does not scale with its page (a search, program analytics) costs its
 *   STATEMENT_WEIGHTS (statement-weights.ts, a function of its arguments) on top, each time it
 *   appears: 30 aliased searches cost 30 searches;
 * - a list with a `first` argument (`Balance.expiring`) costs first × (1 + the cost of its selection);
 * - `first` is the value given, or the argument's default when it is absent or null (as the
 *   resolvers read it: `expiring(first: null)` returns 10 lots);
 * - `_entities` costs (number of representations) × (1 + the cost of its selection);
 * - any other list (`balances`: one entry per asset of the project) costs
 *   UNPAGED_LIST_SIZE × (1 + the cost of its selection);
 * - introspection costs 0 (it never reaches the database);
 * - fields skipped by @skip/@include cost nothing; on an abstract type, the costliest possible
 *   type counts (as graphql-query-complexity, which this replaces, reckons it).
 *
 * The benchmark query — project → wallets(first: 100) with totalCount → balances + transactions(first: 5) with
 * their fields and page infos (test/graphql/documents/nested.graphql) — costs 2,903; budget 10,000. Asking for each of 100 wallets' 100 latest
 * transactions (≥ 20,000) or nesting a second connection inside it is refused.
 */
export const UNPAGED_LIST_SIZE = 10;

/** A count(*) (or a sum of counters) over a whole list: one read, like an object. */
export const COUNT_COST = 1;

/** A selection's cost: the part a connection multiplies by its page size, and its counts, made once per connection. */
interface Cost {
  perItem: number;
  counts: number;
}

const FREE: Cost = { perItem: 0, counts: 0 };
const total = (cost: Cost): number => cost.perItem + cost.counts;

/**
 * Costs an operation in time linear in its document: each fragment's cost is computed once (a
 * function of the fragment and the variables) and added wherever the fragment is spread — the
 * multiplication by page sizes happens at the fields above the spread. graphql-query-complexity
 * walked every spread again (2^n for a fragment spreading the next one twice, n levels deep).
 * A fragment on a cycle costs 0 where it comes back (graphql's rules refuse the document anyway).
 */
export class CostWalk {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly fragmentCosts = new Map<string, Cost>();

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly variables: Record<string, unknown>,
  ) {
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(definition.name.value, definition);
  }

  operation(operation: OperationDefinitionNode): number {
    const root = this.schema.getRootType(operation.operation);
    return root ? total(this.selectionSet(root, operation.selectionSet)) : 0;
  }

  private selectionSet(type: GraphQLCompositeType, set: SelectionSetNode): Cost {
    const possible = this.possibleTypes(type);
    const byType = new Map<string, Cost>();
    const add = (cost: Cost, typeNames: readonly string[]) => {
      for (const name of typeNames) {
        const sum = byType.get(name) ?? FREE;
        byType.set(name, { perItem: sum.perItem + cost.perItem, counts: sum.counts + cost.counts });
      }
    };
    for (const selection of set.selections) {
      if (!this.included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        const field = fieldOf(type, selection.name.value);
        if (field) add(this.field(type, field, selection), possible);
        continue;
      }
      const condition = selection.kind === Kind.INLINE_FRAGMENT ? (selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : type) : this.fragmentType(selection.name.value);
      if (!condition || !isCompositeType(condition)) continue; // unknown: graphql's own rules refuse it
      const cost = selection.kind === Kind.INLINE_FRAGMENT ? this.selectionSet(condition, selection.selectionSet) : this.fragment(selection.name.value, condition);
      add(cost, this.possibleTypes(condition));
    }
    let costliest = FREE;
    for (const cost of byType.values()) if (total(cost) > total(costliest)) costliest = cost;
    return costliest;
  }

  private field(parent: GraphQLCompositeType, field: GraphQLField<unknown, unknown>, node: FieldNode): Cost {
    const cost = this.fieldCost(parent, field, node);
    const weigh = STATEMENT_WEIGHTS[getNamedType(field.type).name];
    return weigh ? { perItem: cost.perItem + weigh(getArgumentValues(field, node, this.variables)), counts: cost.counts } : cost;
  }

  private fieldCost(parent: GraphQLCompositeType, field: GraphQLField<unknown, unknown>, node: FieldNode): Cost {
    // introspection never reaches the database; its size is bounded by the schema's
    if (field.name.startsWith('__') || parent.name.startsWith('__')) return FREE;
    const named = getNamedType(field.type);
    if (isLeafType(named)) return field.name === 'totalCount' ? { perItem: 0, counts: COUNT_COST } : FREE;
    const args = getArgumentValues(field, node, this.variables);
    const child = isCompositeType(named) && node.selectionSet ? this.selectionSet(named, node.selectionSet) : FREE;
    const isList = isListType(getNullableType(field.type));
    if (field.name === '_entities') {
      const count = Array.isArray(args.representations) ? args.representations.length : 1;
      return perItem(count * (1 + total(child)));
    }
    const first = pageSize(field, args);
    // a connection's statement reads its page whatever the selection asks of it (`{ totalCount }` alone included)
    if (first !== null) return perItem(isList ? first * (1 + total(child)) : 1 + first * Math.max(child.perItem, 1) + child.counts);
    // Relay `edges` are the page itself: the connection field above already multiplied by `first`.
    if (isList && field.name !== 'edges') return perItem(UNPAGED_LIST_SIZE * (1 + total(child)));
    return perItem(1 + total(child));
  }

  private fragment(name: string, type: GraphQLCompositeType): Cost {
    const known = this.fragmentCosts.get(name);
    if (known) return known;
    this.fragmentCosts.set(name, FREE); // on a cycle, the way back costs nothing
    const cost = this.selectionSet(type, this.fragments.get(name)!.selectionSet);
    this.fragmentCosts.set(name, cost);
    return cost;
  }

  private fragmentType(name: string) {
    const fragment = this.fragments.get(name);
    return fragment ? this.schema.getType(fragment.typeCondition.name.value) : undefined;
  }

  private possibleTypes(type: GraphQLCompositeType): readonly string[] {
    return isAbstractType(type) ? this.schema.getPossibleTypes(type).map((possible) => possible.name) : [type.name];
  }

  private included(selection: SelectionNode): boolean {
    if (getDirectiveValues(GraphQLSkipDirective, selection, this.variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, selection, this.variables)?.if !== false;
  }
}

const perItem = (cost: number): Cost => ({ perItem: cost, counts: 0 });

function fieldOf(type: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
  if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  return isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
}

/** The page size a field with a `first` argument reads (null: not paged), as the resolvers read it. */
function pageSize(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>): number | null {
  const argument = field.args.find((arg) => arg.name === 'first');
  if (!argument) return null;
  const first = typeof args.first === 'number' ? args.first : argument.defaultValue;
  return typeof first === 'number' && first > 0 ? first : 0;
}
