import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { WebhookEvent } from '../../domain/webhook/webhook.repository.js';
import type { WebhookOutcome } from '../../domain/webhook/webhook.service.js';
import type { GraphQLContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { projectIdOf } from '../ids.js';
import { idempotent } from '../idempotency.js';
import { WebhookInput } from '../inputs/ledger.input.js';
import { checkFirst, PageArgs } from '../paging.js';
import { toConnection, type Connection } from '../types/connection.js';
import { WebhookEventConnection, WebhookResultType } from '../types/webhook.type.js';

@Resolver()
export class WebhookResolver {
  @Query(() => WebhookEventConnection, { description: "A project's webhook events, oldest first." })
  async webhookEvents(@Arg('projectId', () => ID) projectId: string, @Args() { first, after }: PageArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<WebhookEvent>> {
    checkFirst(first, ctx.limits.maxPageSize);
    const { events, total } = await ctx.services.webhook.events(ctx.principal, projectIdOf(projectId), first + 1, decodeCursor('seq', after));
    return toConnection(
      { rows: events.slice(0, first), hasNextPage: events.length > first, hasPreviousPage: after !== null && after !== undefined },
      (event) => encodeCursor('seq', event.seq),
      (event) => event,
      () => total,
    );
  }

  @Mutation(() => WebhookResultType, { description: 'POST /webhook: reward and redeem post a transfer; other flows are recorded.' })
  webhook(
    @Arg('input', () => WebhookInput) input: WebhookInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WebhookOutcome> {
    return idempotent(ctx, 'webhook', idempotencyKey, { input }, () =>
      ctx.services.webhook.handle(ctx.principal, { flowId: input.flowId, projectId: projectIdOf(input.projectId), values: input.values }),
    );
  }
}
