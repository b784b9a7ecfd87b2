import { Directive, Field, Int, ObjectType, type ClassType } from 'type-graphql';

/**
 * Shareable: a value type (no key) that other subgraphs with Relay connections define too; in
 * Federation 2 a field two subgraphs resolve must be shareable in both, or composition fails.
 */
@Directive('@shareable')
@ObjectType('PageInfo', { simpleResolvers: true, description: 'Where a page of a list stands (Relay): whether items follow it, and the cursors to go on from it.' })
export class PageInfo {
  @Field({ description: 'true when items follow this page: pass `endCursor` as `after` (same `first`) to read them.' }) hasNextPage!: boolean;
  @Field({ description: 'true when items come before this page, i.e. it was read with an `after`. Lists page forwards only.' }) hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: "The first edge's cursor; null when the page is empty." }) startCursor!: string | null;
  @Field(() => String, { nullable: true, description: "The last edge's cursor, the `after` of the next page; null when the page is empty." }) endCursor!: string | null;
}

export interface Edge<T> {
  node: T;
  cursor: string;
}

export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
  /** A getter: evaluated only when the query asks for it. */
  readonly totalCount: number | Promise<number>;
}

const edgeTypes = new Map<string, ClassType<Edge<object>>>();

/** `<Name>Edge`, one per node type (shared by every connection over that type). */
export function edgeType<T extends object>(name: string, node: ClassType<T>): ClassType<Edge<T>> {
  let edge = edgeTypes.get(name);
  if (!edge) {
    @ObjectType(`${name}Edge`, { simpleResolvers: true, description: `One ${name} of a page, with its position in the list.` })
    class EdgeType {
      @Field(() => node, { description: `The ${name}.` }) node!: T;
      @Field({ description: 'An opaque position in the list: pass it as `after` to read the items that follow this one.' }) cursor!: string;
    }
    edge = EdgeType;
    edgeTypes.set(name, edge);
  }
  return edge as ClassType<Edge<T>>;
}

/**
 * `<Name>Connection` (with its `<Name>Edge`) for a node type: a Relay connection with `totalCount`.
 * `typeName` gives another connection over the same edges (e.g. RecentTransactionConnection);
 * `description` replaces the generic one (a consumer reads it in the schema).
 */
export function connectionType<T extends object>(name: string, node: ClassType<T>, typeName = `${name}Connection`, description?: string): ClassType<Connection<T>> {
  const edge = edgeType(name, node);

  @ObjectType(typeName, { simpleResolvers: true, description: description ?? `A page of a list of ${name} items (a Relay connection), in the list's order.` })
  class ConnectionType {
    @Field(() => [edge], { description: "The page's items, each with its cursor, in the list's order." }) edges!: Edge<T>[];
    @Field(() => PageInfo, { description: 'Whether more items follow, and the cursor to read them.' }) pageInfo!: PageInfo;
    // a getter that may return a Promise (counted only when asked): it keeps a resolver, which graphql-jit awaits
    @Field(() => Int, { simple: false, description: 'How many items the whole list holds, across every page (whatever `first` and `after`).' }) totalCount!: number;
  }
  return ConnectionType;
}

export interface Window<R> {
  rows: readonly R[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/** A connection over one fetched window; `totalCount` is evaluated only if the query asks for it. */
export function toConnection<R, T>(window: Window<R>, cursorOf: (row: R, index: number) => string, nodeOf: (row: R) => T, totalCount: () => number | Promise<number>): Connection<T> {
  const page = toPage(window, cursorOf, nodeOf);
  return {
    ...page,
    get totalCount() {
      return totalCount();
    },
  };
}

export function toPage<R, T>(window: Window<R>, cursorOf: (row: R, index: number) => string, nodeOf: (row: R) => T): Omit<Connection<T>, 'totalCount'> {
  const edges = window.rows.map((row, index) => ({ node: nodeOf(row), cursor: cursorOf(row, index) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: window.hasNextPage,
      hasPreviousPage: window.hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
