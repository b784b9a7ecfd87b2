import type { Services } from '../../services.js';
import type { GraphQLContext } from '../context.js';
import { createLoaders, type Loaders } from '../loaders.js';

const turns = new WeakMap<Services, Map<string, Loaders>>();

/**
 * Loaders for a subscription message, shared by every message built in the same turn of the
 * event loop for the same owner, then dropped. One hub delivery wakes every subscriber it
 * concerns in one turn: their reads (wallets, balances) batch into one statement each instead of
 * one per subscriber, and the next delivery reads afresh. The per-request loaders of a query are
 * no use here: a subscription's context lives as long as the subscription, so they would serve
 * the first message's balances forever.
 */
export function turnLoaders(ctx: GraphQLContext): Loaders {
  let byOwner = turns.get(ctx.services);
  if (!byOwner) {
    byOwner = new Map();
    turns.set(ctx.services, byOwner);
  }
  let loaders = byOwner.get(ctx.principal.ownerId);
  if (!loaders) {
    if (byOwner.size === 0) setImmediate(() => byOwner.clear());
    loaders = createLoaders(ctx.principal, ctx.services);
    byOwner.set(ctx.principal.ownerId, loaders);
  }
  return loaders;
}
