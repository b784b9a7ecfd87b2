import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AssetView } from '../../domain/assets/asset.types.js';
import type { ProjectView } from '../../domain/projects/project.types.js';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { IDEMPOTENCY_KEY_ARG, idempotent } from '../idempotency.js';
import { CreateAssetInput, UpdateAssetInput } from '../inputs/asset.input.js';
import { withoutNulls } from '../inputs/nulls.js';
import { checkFirst, offsetCursor, offsetWindow, PageArgs } from '../paging.js';
import { AssetConnection, AssetType, DeleteAssetPayload } from '../types/asset.type.js';
import { toConnection, type Connection } from '../types/connection.js';
import { ProjectType } from '../types/project.type.js';

@Resolver(() => AssetType)
export class AssetResolver {
  @Query(() => AssetType, {
    nullable: true,
    description: 'One of your assets by id (as GET /assets/{id}). A missing asset, or another owner\'s, is a `not_found` error (and `asset: null`); a malformed id a `validation_error`.',
  })
  asset(@Arg('id', () => ID, { description: "The asset's id (a UUID)." }) id: string, @Ctx() ctx: GraphQLContext): Promise<AssetView> {
    return ctx.services.assets.get(ctx.principal, id);
  }

  @Query(() => AssetConnection, { description: "Your assets in every project, or one project's own assets, oldest first (as GET /assets)." })
  async assets(
    @Arg('projectId', () => ID, { nullable: true, description: "Only this project's own assets (another owner's project: `not_found`); absent: every project's." }) projectId: string | null,
    @Args() { first, after }: PageArgs,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Connection<AssetView>> {
    const project = projectId === null || projectId === undefined ? undefined : projectIdOf(projectId);
    const window = await offsetWindow(checkFirst(first, ctx.limits.maxPageSize), after, (page) => ctx.services.assets.list(ctx.principal, { ...page, projectId: project }));
    return toConnection(window, (_, i) => offsetCursor(window.offset, i), (asset) => asset, () => window.total);
  }

  @FieldResolver(() => ProjectType, { description: 'The project the asset belongs to.' })
  project(@Root() asset: AssetView, @Ctx() ctx: GraphQLContext): Promise<ProjectView | null> {
    return ctx.loaders.project.load(asset.projectId);
  }

  @Mutation(() => AssetType, {
    description:
      "Creates a currency in one of your projects (as POST /assets); a project's first asset becomes its primary one. Errors: `validation_error`, `not_found` (the project), `conflict` (the symbol is taken in the project), `quota_exceeded` (the plan's assets_per_project).",
  })
  createAsset(
    @Arg('input', () => CreateAssetInput, { description: 'The new asset.' }) input: CreateAssetInput,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AssetView> {
    return idempotent(ctx, 'createAsset', idempotencyKey, { input }, () =>
      ctx.services.assets.create(ctx.principal, { ...withoutNulls(input), projectId: projectIdOf(input.projectId) }),
    );
  }

  @Mutation(() => AssetType, {
    description:
      "Changes an asset's name, symbol or expiry (as PUT /assets/{id}) and answers it as it is now. Errors: `validation_error`, `not_found` (the asset, or `projectId` not its project), `conflict` (the symbol of an asset with transactions, or a symbol taken in the project).",
  })
  updateAsset(
    @Arg('id', () => ID, { description: "The asset's id." }) id: string,
    @Arg('input', () => UpdateAssetInput, { description: 'The fields to change.' }) input: UpdateAssetInput,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<AssetView> {
    return idempotent(ctx, 'updateAsset', idempotencyKey, { id, input }, () =>
      ctx.services.assets.update(ctx.principal, id, {
        ...withoutNulls(input),
        projectId: input.projectId === null || input.projectId === undefined ? undefined : projectIdOf(input.projectId),
        // null is a value here ("never expires"), not "unchanged": keep it when the client sent it
        ...(input.expiresAfterSeconds === null && { expiresAfterSeconds: null }),
      }),
    );
  }

  @Mutation(() => DeleteAssetPayload, {
    description:
      "Deletes an asset that was never used (as DELETE /assets/{id}); each project that had it as primary asset gets its oldest remaining own asset (or none) instead. Errors: `validation_error`, `not_found`, `asset_in_use` (it has transactions or holds).",
  })
  deleteAsset(
    @Arg('id', () => ID, { description: "The asset's id." }) id: string,
    @Arg('idempotencyKey', () => String, IDEMPOTENCY_KEY_ARG) idempotencyKey: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<{ id: string; deleted: true }> {
    return idempotent(ctx, 'deleteAsset', idempotencyKey, { id }, () => ctx.services.assets.delete(ctx.principal, id));
  }
}
