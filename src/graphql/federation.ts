import type { GraphQLContext } from './context.js';
import { projectIdOrNull } from './ids.js';
import { holdModel, transactionByIdModel } from './presenters.js';
import { walletGroupModel } from './resolvers/wallet-group.resolver.js';

type ReferenceResolver = (reference: { id: string }, ctx: GraphQLContext) => Promise<unknown> | null;

/**
 * `__resolveReference` per entity type. `_entities` calls them once per representation in the
 * same tick, so each type's loader batches all of them into one statement; the loaders are
 * scoped to the caller, so another owner's id (like a missing or malformed one) resolves to null.
 */
export const referenceResolvers: Record<string, ReferenceResolver> = {
  Project: (reference, ctx) => {
    const id = projectIdOrNull(reference.id);
    return id === null ? null : ctx.loaders.project.load(id);
  },
  Asset: (reference, ctx) => ctx.loaders.asset.load(String(reference.id)),
  Wallet: (reference, ctx) => ctx.loaders.wallet.load(String(reference.id)),
  Transaction: async (reference, ctx) => {
    const row = await ctx.loaders.transaction.load(String(reference.id));
    return row ? transactionByIdModel(row) : null;
  },
  WalletGroup: async (reference, ctx) => {
    const group = await ctx.loaders.walletGroup.load(String(reference.id));
    return group ? walletGroupModel(group) : null;
  },
  Hold: async (reference, ctx) => {
    const hold = await ctx.loaders.hold.load(String(reference.id));
    return hold ? holdModel(hold) : null;
  },
};
