import { Arg, Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { ProjectView } from '../../domain/projects/project.types.js';
import { encodeAfter } from '../../domain/search/transaction-search.rules.js';
import type { SearchQuery } from '../../domain/search/transaction-search.types.js';
import type { GraphQLContext } from '../context.js';
import { TransactionFilterInput } from '../inputs/transaction-filter.input.js';
import { checkFirst, PageArgs } from '../paging.js';
import { transactionModel, type TransactionModel } from '../presenters.js';
import { toPage } from '../types/connection.js';
import { ProjectType } from '../types/project.type.js';
import { TransactionSearchConnection } from '../types/transaction-search.type.js';

/** Project.transactions: REST's transaction search (GET /transactions/search) as a connection; the domain checks every filter. */
@Resolver(() => ProjectType)
export class ProjectTransactionsResolver {
  @FieldResolver(() => TransactionSearchConnection, {
    description:
      "The project's transactions matching every filter given, newest first (ties by commit order), as GET /transactions/search. Each `balance` is the `walletId` wallet's when that filter is given, else the sender's (for a seed: the seeded wallet's). No `totalCount`: a search is not counted. Errors: `validation_error` (a filter out of range), `not_found` (a wallet or currency the project lacks).",
  })
  async transactions(
    @Root() project: ProjectView,
    @Arg('filter', () => TransactionFilterInput, { nullable: true, description: 'Filters combined with AND; none: every transaction of the project.' })
    filter: TransactionFilterInput | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TransactionSearchConnection> {
    const size = checkFirst(first, ctx.limits.maxPageSize);
    // first: 0 still asks the domain for one row (its limit is 1–100), to tell whether there is a next page
    const page = await ctx.services.search.search(ctx.principal, { ...searchFilter(project.id, filter), limit: Math.max(size, 1), after });
    const rows = page.rows.slice(0, size);
    return toPage<(typeof rows)[number], TransactionModel>(
      { rows, hasNextPage: page.hasMore || rows.length < page.rows.length, hasPreviousPage: after !== null && after !== undefined },
      (row) => encodeAfter(row.date, row.seq),
      transactionModel,
    );
  }
}

/** The GraphQL filter as the domain's query: absent and null alike mean "no such filter". */
function searchFilter(projectId: number, filter: TransactionFilterInput | null): Omit<SearchQuery, 'limit'> {
  const given = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);
  return {
    projectId,
    walletId: given(filter?.walletId),
    from: given(filter?.from),
    to: given(filter?.to),
    currency: given(filter?.currency),
    minAmount: filter?.minAmount === null || filter?.minAmount === undefined ? undefined : String(filter.minAmount),
    maxAmount: filter?.maxAmount === null || filter?.maxAmount === undefined ? undefined : String(filter.maxAmount),
    since: given(filter?.since),
    until: given(filter?.until),
    reference: given(filter?.reference),
    referencePrefix: given(filter?.referencePrefix),
    reverses: given(filter?.reverses),
    metadata: filter?.metadata?.map(({ key, value }) => ({ key, value })),
  };
}
