import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { BalanceMonitorView } from '../../domain/monitors/monitor.types.js';
import { minorToDecimalString } from '../../domain/money.js';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { IDEMPOTENCY_KEY_ARG, idempotent } from '../idempotency.js';
import { checkFirst, offsetCursor, offsetWindow, PageArgs } from '../paging.js';
import { DecimalScalar } from '../scalars.js';
import { BalanceMonitorConnection, BalanceMonitorType, DeleteBalanceMonitorPayload, MonitorFieldEnum, MonitorOperatorEnum } from '../types/balance-monitor.type.js';
import { toConnection, type Connection } from '../types/connection.js';

/** What BalanceMonitorType resolves from: JSON-safe, so a mutation's answer replays identically. */
interface BalanceMonitorModel {
  id: string;
  projectId: number;
  walletId: string | null;
  currency: string;
  field: string;
  operator: string;
  value: string;
  createdAt: string;
}

const monitorModel = (monitor: BalanceMonitorView): BalanceMonitorModel => ({
  id: monitor.id,
  projectId: monitor.projectId,
  walletId: monitor.walletId,
  currency: monitor.symbol,
  field: monitor.field,
  operator: monitor.operator,
  value: minorToDecimalString(monitor.value, monitor.fractions),
  createdAt: monitor.createdAt.toISOString(),
});

/** Balance monitors (CONTRACT §20): the REST body's fields as arguments; the rules are BalanceMonitorService's. */
@Resolver(() => BalanceMonitorType)
export class BalanceMonitorResolver {
  @Query(() => BalanceMonitorConnection, { description: "A project's balance monitors, oldest first; with walletId (id or address), that wallet's own only. Paged by offset cursors." })
  async balanceMonitors(
    @Arg('projectId', () => ID, { description: 'The project whose monitors are listed (not_found if it is not yours).' }) projectId: string,
    @Arg('walletId', () => String, { nullable: true, description: 'A wallet of the project (id or address): only its own monitors.' }) walletId: string | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<BalanceMonitorModel>> {
    const project = projectIdOf(projectId);
    const window = await offsetWindow(checkFirst(first, ctx.limits.maxPageSize), after, (page) =>
      ctx.services.balanceMonitors.list(ctx.principal, { ...page, projectId: project, walletId }),
    );
    return toConnection(window, (_, i) => offsetCursor(window.offset, i), monitorModel, () => window.total);
  }

  @Mutation(() => BalanceMonitorType, { description: 'Creates a balance monitor: each committed change that makes its condition true for a wallet writes one balance.threshold_crossed event. At most 100 per project (`quota_exceeded`); bad input is `validation_error`, an unknown project, currency or wallet `not_found`. Creating one fires nothing.' })
  createBalanceMonitor(
    @Arg('projectId', () => ID, { description: 'The project the monitor belongs to.' }) projectId: string,
    @Arg('currency', { description: 'The asset symbol whose balances are watched.' }) currency: string,
    @Arg('field', () => MonitorFieldEnum, { description: 'The value watched: BALANCE or AVAILABLE.' }) field: MonitorFieldEnum,
    @Arg('operator', () => MonitorOperatorEnum, { description: 'The comparison with value.' }) operator: MonitorOperatorEnum,
    @Arg('value', () => DecimalScalar, { description: "Major units, ≥ 0, at most the currency's decimals." }) value: string | number,
    @Arg('walletId', () => String, { nullable: true, description: 'A wallet id or address; absent: every customer wallet of the project.' }) walletId: string | null,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<BalanceMonitorModel> {
    const args = { projectId, currency, field, operator, value, walletId };
    return idempotent(ctx, 'createBalanceMonitor', idempotencyKey, args, async () =>
      monitorModel(await ctx.services.balanceMonitors.create(ctx.principal, { ...args, projectId: projectIdOf(projectId) })),
    );
  }

  @Mutation(() => DeleteBalanceMonitorPayload, { description: 'Deletes a balance monitor: it crosses no more; events already written stay (`not_found` if it is not yours).' })
  deleteBalanceMonitor(
    @Arg('id', () => ID, { description: 'The monitor’s id.' }) id: string,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<{ id: string; deleted: true }> {
    return idempotent(ctx, 'deleteBalanceMonitor', idempotencyKey, { id }, () => ctx.services.balanceMonitors.delete(ctx.principal, id));
  }
}
