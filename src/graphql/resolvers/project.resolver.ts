import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AssetView } from '../../domain/assets/asset.types.js';
import type { CreateProjectInput as CreateProjectFields, ProjectView } from '../../domain/projects/project.types.js';
import type { WalletView } from '../../domain/wallets/wallet.types.js';
import type { GraphQLContext } from '../context.js';
import { decodeCursor, encodeCursor } from '../cursors.js';
import { projectIdOf } from '../ids.js';
import { IDEMPOTENCY_KEY_ARG, idempotent } from '../idempotency.js';
import { withoutNulls } from '../inputs/nulls.js';
import { CreateProjectInput } from '../inputs/project.input.js';
import { arrayWindow, checkFirst, offsetCursor, offsetWindow, PageArgs } from '../paging.js';
import { AssetConnection, AssetType } from '../types/asset.type.js';
import { toConnection, type Connection } from '../types/connection.js';
import { ProjectConnection, ProjectType } from '../types/project.type.js';
import { WalletConnection, WalletTypeEnum } from '../types/wallet.type.js';

@Resolver(() => ProjectType)
export class ProjectResolver {
  @Query(() => ProjectType, {
    nullable: true,
    description: 'One of your projects by id (as GET /projects/{id}). A missing project, or another owner\'s, is a `not_found` error (and `project: null`); a malformed id a `validation_error`.',
  })
  project(@Arg('id', () => ID, { description: "The project's id (a positive integer)." }) id: string, @Ctx() ctx: GraphQLContext): Promise<ProjectView> {
    return ctx.services.projects.get(ctx.principal, projectIdOf(id, 'id'));
  }

  @Query(() => ProjectConnection, { description: 'Your projects, oldest first (as GET /projects).' })
  async projects(@Args() { first, after }: PageArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<ProjectView>> {
    const window = await offsetWindow(checkFirst(first, ctx.limits.maxPageSize), after, (page) => ctx.services.projects.list(ctx.principal, page));
    return toConnection(window, (_, i) => offsetCursor(window.offset, i), (project) => project, () => window.total);
  }

  @FieldResolver(() => AssetType, { nullable: true, description: "The project's primary asset (its own, or shared from another of your projects); null until it has one." })
  asset(@Root() project: ProjectView, @Ctx() ctx: GraphQLContext): Promise<AssetView | null> | null {
    return project.assetId ? ctx.loaders.asset.load(project.assetId) : null;
  }

  @FieldResolver(() => AssetConnection, { description: "The project's own assets, oldest first (a primary asset shared from another project is not among them)." })
  async assets(@Root() project: ProjectView, @Args() { first, after }: PageArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<AssetView>> {
    checkFirst(first, ctx.limits.maxPageSize);
    const all = await ctx.loaders.assetsOfProject.load(project.id);
    const window = arrayWindow(all, first, after);
    return toConnection(window, (_, i) => offsetCursor(window.offset, i), (asset) => asset, () => all.length);
  }

  @FieldResolver(() => WalletConnection, { description: "The project's wallets (optionally of one type), oldest first." })
  async wallets(
    @Root() project: ProjectView,
    @Args() { first, after }: PageArgs,
    @Arg('type', () => WalletTypeEnum, { nullable: true, description: 'Only wallets of this type; absent: both.' }) type: WalletTypeEnum | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<WalletView>> {
    return walletsOf(ctx, project.id, type, first, after);
  }

  @Mutation(() => ProjectType, {
    description: "Creates a project you own (as POST /projects). Errors: `validation_error`, `not_found` (`assetId` is not one of your assets), `quota_exceeded` (the plan's projects).",
  })
  createProject(
    @Arg('input', () => CreateProjectInput, { description: 'The new project.' }) input: CreateProjectInput,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ProjectView> {
    return idempotent(ctx, 'createProject', idempotencyKey, { input }, () =>
      // the service checks every field with the REST rules (an unknown `type` is its validation_error)
      ctx.services.projects.create(ctx.principal, withoutNulls(input) as CreateProjectFields),
    );
  }

  @Mutation(() => ProjectType, { description: 'Renames one of your projects (as PUT /projects/{id}) and answers it as it is now. Errors: `validation_error`, `not_found`.' })
  renameProject(
    @Arg('id', () => ID, { description: "The project's id." }) id: string,
    @Arg('name', { description: 'The new name, 1–200 characters after trimming.' }) name: string,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ProjectView> {
    return idempotent(ctx, 'renameProject', idempotencyKey, { id, name }, () => ctx.services.projects.rename(ctx.principal, projectIdOf(id, 'id'), name));
  }
}

/** A page of a project's wallets through the batched slice loader (one statement for all projects of the request). */
export async function walletsOf(ctx: GraphQLContext, projectId: number, type: WalletTypeEnum | null, first: number, after: string | null | undefined): Promise<Connection<WalletView>> {
  checkFirst(first, ctx.limits.maxPageSize);
  const slice = await ctx.loaders.walletsOfProject.load({ projectId, type, first, afterSeq: decodeCursor('seq', after) });
  return toConnection(
    { rows: slice.edges, hasNextPage: slice.hasNextPage, hasPreviousPage: after !== null && after !== undefined },
    (edge) => encodeCursor('seq', edge.cursor),
    (edge) => edge.node,
    () => slice.totalCount,
  );
}
