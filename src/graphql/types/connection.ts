import { Directive, Field, Int, ObjectType, type ClassType } from 'type-graphql';

/**
 * Shareable: a value type (no key) that other subgraphs with Relay connections define too; in
 * Federation 2 a field two subgraphs resolve must be shareable in both, or composition fails.
 */
@Directive('@shareable')
@ObjectType('PageInfo', { simpleResolvers: true, description: 'Relay page information.' })
export class PageInfo {
  @Field() hasNextPage!: boolean;
  @Field() hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true }) startCursor!: string | null;
  @Field(() => String, { nullable: true }) endCursor!: string | null;
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
    @ObjectType(`${name}Edge`, { simpleResolvers: true })
    class EdgeType {
      @Field(() => node) node!: T;
      @Field() cursor!: string;
    }
    edge = EdgeType;
    edgeTypes.set(name, edge);
  }
  return edge as ClassType<Edge<T>>;
}

/**
 * `<Name>Connection` (with its `<Name>Edge`) for a node type: a Relay connection with `totalCount`.
 * `typeName` gives another connection over the same edges (e.g. RecentTransactionConnection).
 */
export function connectionType<T extends object>(name: string, node: ClassType<T>, typeName = `${name}Connection`): ClassType<Connection<T>> {
  const edge = edgeType(name, node);

  @ObjectType(typeName, { simpleResolvers: true })
  class ConnectionType {
    @Field(() => [edge]) edges!: Edge<T>[];
    @Field(() => PageInfo) pageInfo!: PageInfo;
    // a getter that may return a Promise (counted only when asked): it keeps a resolver, which graphql-jit awaits
    @Field(() => Int, { simple: false, description: 'All items of the list, across pages.' }) totalCount!: number;
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
