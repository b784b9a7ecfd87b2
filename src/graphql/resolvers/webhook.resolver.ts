import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { WebhookEvent } from '../../domain/webhook/webhook.repository.js';
import type { WebhookOutcome } from '../../domain/webhook/webhook.service.js';
import type { GraphQLContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { projectIdOf } from '../ids.js';
import { IDEMPOTENCY_KEY_ARG, idempotent } from '../idempotency.js';
import { WebhookInput } from '../inputs/ledger.input.js';
import { checkFirst, PageArgs } from '../paging.js';
import { toConnection, type Connection } from '../types/connection.js';
import { WebhookEventConnection, WebhookResultType } from '../types/webhook.type.js';

@Resolver()
export class WebhookResolver {
  @Query(() => WebhookEventConnection, { description: "One of your projects' inbound webhook calls as recorded (refused flows included), oldest first. Pages have no gaps or repeats while calls go on." })
  async webhookEvents(@Arg('projectId', () => ID, { description: 'One of your projects (else `not_found`).' }) projectId: string, @Args() { first, after }: PageArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<WebhookEvent>> {
    checkFirst(first, ctx.limits.maxPageSize);
    const { events, total } = await ctx.services.webhook.events(ctx.principal, projectIdOf(projectId), first + 1, decodeCursor('seq', after));
    return toConnection(
      { rows: events.slice(0, first), hasNextPage: events.length > first, hasPreviousPage: after !== null && after !== undefined },
      (event) => encodeCursor('seq', event.seq),
      (event) => event,
      () => total,
    );
  }

  @Mutation(() => WebhookResultType, {
    description:
      'Runs a flow of the inbound webhook (as POST /webhook): "reward" posts a transfer from a system wallet to a customer wallet, "redeem" from a customer wallet to a system wallet; any other flow is only recorded. Every call that passes validation is recorded (webhookEvents), refused ones included. A flow that cannot run posts nothing and answers the error its transfer would: `validation_error` (e.g. `fiatAmount` without the project\'s supportExchangeRate), `not_found`, `wallet_inactive`, `insufficient_funds`.',
  })
  webhook(
    @Arg('input', () => WebhookInput, { description: 'The flow and its values.' }) input: WebhookInput,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WebhookOutcome> {
    return idempotent(ctx, 'webhook', idempotencyKey, { input }, () =>
      ctx.services.webhook.handle(ctx.principal, { flowId: input.flowId, projectId: projectIdOf(input.projectId), values: input.values }),
    );
  }
}
