import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AssetView } from '../../domain/assets/asset.types.js';
import type { ProjectView } from '../../domain/projects/project.types.js';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { idempotent } from '../idempotency.js';
import { CreateAssetInput, UpdateAssetInput } from '../inputs/asset.input.js';
import { withoutNulls } from '../inputs/nulls.js';
import { checkFirst, offsetCursor, offsetWindow, PageArgs } from '../paging.js';
import { AssetConnection, AssetType, DeleteAssetPayload } from '../types/asset.type.js';
import { toConnection, type Connection } from '../types/connection.js';
import { ProjectType } from '../types/project.type.js';

@Resolver(() => AssetType)
export class AssetResolver {
  @Query(() => AssetType, { nullable: true, description: 'GET /assets/{id}.' })
  asset(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<AssetView> {
    return ctx.services.assets.get(ctx.principal, id);
  }

  @Query(() => AssetConnection, { description: "Your assets, or one project's own assets, oldest first (GET /assets)." })
  async assets(
    @Arg('projectId', () => ID, { nullable: true }) projectId: string | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<AssetView>> {
    const project = projectId === null || projectId === undefined ? undefined : projectIdOf(projectId);
    const window = await offsetWindow(checkFirst(first, ctx.limits.maxPageSize), after, (page) => ctx.services.assets.list(ctx.principal, { ...page, projectId: project }));
    return toConnection(window, (_, i) => offsetCursor(window.offset, i), (asset) => asset, () => window.total);
  }

  @FieldResolver(() => ProjectType)
  project(@Root() asset: AssetView, @Ctx() ctx: GraphQLContext): Promise<ProjectView | null> {
    return ctx.loaders.project.load(asset.projectId);
  }

  @Mutation(() => AssetType, { description: 'POST /assets.' })
  createAsset(
    @Arg('input', () => CreateAssetInput) input: CreateAssetInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AssetView> {
    return idempotent(ctx, 'createAsset', idempotencyKey, { input }, () =>
      ctx.services.assets.create(ctx.principal, { ...input, projectId: projectIdOf(input.projectId) }),
    );
  }

  @Mutation(() => AssetType, { description: 'PUT /assets/{id}.' })
  updateAsset(
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateAssetInput) input: UpdateAssetInput,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AssetView> {
    return idempotent(ctx, 'updateAsset', idempotencyKey, { id, input }, () =>
      ctx.services.assets.update(ctx.principal, id, { ...withoutNulls(input), projectId: input.projectId === null || input.projectId === undefined ? undefined : projectIdOf(input.projectId) }),
    );
  }

  @Mutation(() => DeleteAssetPayload, { description: 'DELETE /assets/{id}.' })
  deleteAsset(
    @Arg('id', () => ID) id: string,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<{ id: string; deleted: true }> {
    return idempotent(ctx, 'deleteAsset', idempotencyKey, { id }, () => ctx.services.assets.delete(ctx.principal, id));
  }
}
