import { ArgsType, Field, Int } from 'type-graphql';
import { validationError } from '../domain/errors.js';
import { decodeCursor, encodeCursor, offsetAfter } from './cursors.js';
import { toConnection, type Connection, type Window } from './types/connection.js';
import type { KeysetRequest, Page, PageRequest } from '../domain/shared/paging.js';
import type { GraphQLContext } from './context.js';

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 20, description: 'How many items the page holds at most, 0 to 100 (else `validation_error`); 0: no edges, but `pageInfo` (and `totalCount` where the connection has one).' })
  first!: number;

  @Field(() => String, { nullable: true, description: "Read the items that follow this cursor: the previous page's `pageInfo.endCursor` (or any edge's `cursor`), passed back as is. Absent: from the start." })
  after?: string | null;
}

export function checkFirst(first: number, maxPageSize: number): number {
  if (!Number.isInteger(first) || first < 0 || first > maxPageSize) throw validationError('first', `must be an integer from 0 to ${maxPageSize}`);
  return first;
}

/**
 * Reads items [offset, offset + first) of a list the services page by `page`/`limit` (the REST
 * lists, CONTRACT §7): one page when the window is aligned on `first` (always, when the client
 * passes back the previous `endCursor` with the same `first`), else two.
 */
export async function offsetWindow<T>(first: number, after: string | null | undefined, fetch: (request: PageRequest) => Promise<Page<T>>): Promise<Window<T> & { offset: number; total: number }> {
  const offset = offsetAfter(after);
  const limit = Math.max(first, 1);
  const page = Math.floor(offset / limit) + 1;
  const pages = [await fetch({ page, limit })];
  if (offset % limit !== 0 && first > 0) pages.push(await fetch({ page: page + 1, limit }));
  const skip = offset - (page - 1) * limit;
  const rows = pages.flatMap((p) => p.items).slice(skip, skip + first);
  const total = pages[0].total;
  return { rows, offset, total, hasPreviousPage: offset > 0, hasNextPage: offset + rows.length < total };
}

export const offsetCursor = (offset: number, index: number): string => encodeCursor('offset', offset + index);

/** The same window over a list already loaded whole (a project's assets: at most the plan's assets_per_project). */
export function arrayWindow<T>(items: readonly T[], first: number, after: string | null | undefined): Window<T> & { offset: number } {
  const offset = offsetAfter(after);
  const rows = items.slice(offset, offset + first);
  return { rows, offset, hasPreviousPage: offset > 0, hasNextPage: offset + rows.length < items.length };
}

/**
 * The keyset request of a newest-first connection (issue 19): `first` rows older than the `after`
 * cursor's `seq`. An offset cursor of the lists paged by offset before is refused
 * (validation_error, docs/decisions/graphql-keyset-cursors.md).
 */
export function keysetOf(first: number, after: string | null | undefined, ctx: GraphQLContext): KeysetRequest {
  return { limit: checkFirst(first, ctx.limits.maxPageSize), before: decodeCursor('seq', after) };
}

/** A newest-first keyset page as a connection: each edge's cursor is its row's `seq`, the total every item's. */
export function keysetConnection<R extends { seq: string }, T>(page: Page<R> & { hasMore: boolean }, after: string | null | undefined, nodeOf: (row: R) => T): Connection<T> {
  return toConnection(
    { rows: page.items, hasNextPage: page.hasMore, hasPreviousPage: after !== null && after !== undefined },
    (row) => encodeCursor('seq', row.seq),
    nodeOf,
    () => page.total,
  );
}
