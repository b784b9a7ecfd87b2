import { Arg, Ctx, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { LedgerEventView } from '../../domain/events/event.types.js';
import { notFound } from '../../domain/errors.js';
import type { WalletView } from '../../domain/wallets/wallet.types.js';
import type { GraphQLContext } from '../context.js';
import { turnLoaders } from '../subscriptions/turn-loaders.js';
import { WalletType } from '../types/wallet.type.js';
import { LedgerEventType } from '../types/event.type.js';
import { projectIdOf } from '../ids.js';
import { CURRENT, startingWith } from '../subscriptions/starting-with.js';

type SubscribeData = SubscribeResolverData<unknown, Record<string, unknown>, GraphQLContext>;

/** The feed's options: where it starts (fixed when the message arrived) and what happens if it falls behind. */
const watching = (ctx: GraphQLContext) => ({ start: ctx.subscriber?.start, onOverflow: () => ctx.subscriber?.tooSlow() });

/**
 * Subscriptions (CONTRACT §16), served over WebSocket (subscriptions/websocket-server.ts). The
 * `subscribe` functions open a feed, which checks access first: another owner's wallet or project
 * is not_found, reported before any event. Each event is then resolved like a query answer, with
 * loaders of the current turn (turn-loaders.ts), so its message shows the state after that event
 * (or later, never earlier).
 */
@Resolver()
export class SubscriptionResolver {
  @Subscription(() => WalletType, {
    nullable: true,
    description:
      'One of your wallets after each change of its balances, holds or status (each event that touches it), from the moment the subscription starts, none skipped; with `initial: true`, the wallet as it is first. Another owner\'s or a missing wallet: an error with `extensions.code` `not_found`, and nothing else.',
    subscribe: async ({ args, context }: SubscribeData) => {
      const { wallet, feed } = await context.services.eventFeeds.watchWallet(context.principal, String(args.walletId), watching(context));
      if (context.subscriber) context.subscriber.wallet = wallet;
      return args.initial === true ? startingWith(feed) : feed;
    },
  })
  async walletChanged(
    @Root() event: LedgerEventView | typeof CURRENT,
    @Arg('walletId', () => ID, { description: "The wallet's id (a UUID)." }) walletId: string,
    @Arg('initial', () => Boolean, { defaultValue: false, description: 'true: send the wallet as it is when the subscription starts, before its changes.' }) _initial: boolean,
    @Ctx() ctx: GraphQLContext,
  ): Promise<WalletView> {
    ctx.loaders = turnLoaders(ctx); // this turn's reads, shared with the other subscribers woken by the same events
    const watched = ctx.subscriber;
    // The first message of `initial: true`: the wallet read once the starting point was fixed, so
    // it shows every change before it and the feed sends every change after it.
    if (event === CURRENT) return watched?.wallet ?? this.load(ctx, walletId);
    // A wallet row changes only with its status, and each status change is an event that carries it.
    if (event.subject.kind === 'wallet' && watched?.wallet && event.subject.wallet.id === watched.wallet.id) watched.wallet = event.subject.wallet;
    if (watched?.wallet) return watched.wallet;
    return this.load(ctx, walletId);
  }

  private async load(ctx: GraphQLContext, walletId: string): Promise<WalletView> {
    const wallet = await ctx.loaders.wallet.load(walletId);
    if (!wallet) throw notFound('wallet', walletId);
    return wallet;
  }

  @Subscription(() => LedgerEventType, {
    nullable: true,
    description:
      "One of your projects' events committed after the subscription starts, each once, in increasing `seq`, whichever instance committed them; only the `types` listed when given. Another owner's or a missing project: an error with `extensions.code` `not_found`, and nothing else.",
    subscribe: ({ args, context }: SubscribeData) =>
      context.services.eventFeeds.watchProject(context.principal, projectIdOf(String(args.projectId)), (args.types as string[] | null | undefined) ?? null, watching(context)),
  })
  ledgerEvents(
    @Root() event: LedgerEventView,
    @Arg('projectId', () => ID, { description: "The project's id." }) _projectId: string,
    @Arg('types', () => [String], { nullable: true, description: 'The event types to receive, e.g. ["transaction.posted", "hold.created"]; absent: every type.' }) _types: string[] | null,
  ): LedgerEventView {
    return event;
  }
}
