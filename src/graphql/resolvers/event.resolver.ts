import { Arg, Args, Ctx, FieldResolver, Float, ID, Query, Resolver, Root } from 'type-graphql';
import type { LedgerEventView } from '../../domain/events/event.types.js';
import { eventData } from '../../json/event.json.js';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { checkFirst, PageArgs } from '../paging.js';
import { JSONScalar } from '../scalars.js';
import { toConnection, type Connection } from '../types/connection.js';
import { LedgerEventConnection, LedgerEventType } from '../types/event.type.js';

@Resolver(() => LedgerEventType)
export class EventResolver {
  @Query(() => LedgerEventConnection, {
    description: "One of your projects' events, oldest first (as GET /events): every committed change, in `seq` order. Here `after` may also be a `seq` (as text), e.g. the last one a client processed.",
  })
  async events(@Arg('projectId', () => ID, { description: 'One of your projects (else `not_found`).' }) projectId: string, @Args() { first, after }: PageArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<LedgerEventView>> {
    checkFirst(first, ctx.limits.maxPageSize);
    const project = projectIdOf(projectId);
    const page = await ctx.services.events.list(ctx.principal, { projectId: project, after: after ?? 0, limit: Math.max(first, 1) });
    const rows = page.events.slice(0, first);
    return toConnection(
      { rows, hasNextPage: page.hasMore || rows.length < page.events.length, hasPreviousPage: page.after !== '0' },
      (event) => event.seq,
      (event) => event,
      () => ctx.services.events.count(ctx.principal, project),
    );
  }

  @FieldResolver(() => Float)
  seq(@Root() event: LedgerEventView): number {
    return Number(event.seq);
  }

  @FieldResolver(() => JSONScalar)
  data(@Root() event: LedgerEventView): unknown {
    return eventData(event);
  }
}
