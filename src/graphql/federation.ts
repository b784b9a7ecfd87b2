import type { GraphQLContext } from './context.js';

type ReferenceResolver = (reference: { id: string }, ctx: GraphQLContext) => Promise<unknown>;

/** `__resolveReference` per entity type, batched through the request's loaders. */
export const referenceResolvers: Record<string, ReferenceResolver> = {};
