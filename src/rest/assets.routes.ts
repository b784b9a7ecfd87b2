import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { pagination } from '../json/page.json.js';
import { AssetBody, assetJson } from '../json/asset.json.js';
import { AssetDeletedBody, AssetIdParams, AssetListBody, AssetListQuery, CreateAssetBody, UpdateAssetBody } from './assets.schemas.js';

export function assetRoutes({ assets }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/assets',
      auth: 'api_key',
      body: CreateAssetBody,
      doc: {
        operationId: 'createAsset',
        summary: "Create an asset in one of your projects (the project's first asset becomes its asset_id)",
        tag: 'assets',
        response: { status: 201, schema: AssetBody },
        errors: ['not_found', 'quota_exceeded', 'conflict'],
      },
      handler: async ({ principal, body }) => ({ status: 201, body: assetJson(await assets.create(principal, body)) }),
    }),
    route({
      method: 'GET',
      path: '/assets',
      auth: 'api_key',
      query: AssetListQuery,
      doc: {
        operationId: 'listAssets',
        summary: "Your assets, or one project's own assets, oldest first",
        tag: 'assets',
        response: { status: 200, schema: AssetListBody },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query }) => {
        const page = await assets.list(principal, query);
        return { status: 200, body: { assets: page.items.map(assetJson), pagination: pagination(query.page, query.limit, page.total) } };
      },
    }),
    route({
      method: 'GET',
      path: '/assets/{id}',
      auth: 'api_key',
      params: AssetIdParams,
      doc: { operationId: 'getAsset', summary: 'One asset', tag: 'assets', response: { status: 200, schema: AssetBody }, errors: ['validation_error', 'not_found'] },
      handler: async ({ principal, params }) => ({ status: 200, body: assetJson(await assets.get(principal, params.id)) }),
    }),
    route({
      method: 'PUT',
      path: '/assets/{id}',
      auth: 'api_key',
      params: AssetIdParams,
      body: UpdateAssetBody,
      doc: {
        operationId: 'updateAsset',
        summary: 'Rename an asset or change its symbol (not once it has transactions); projectId is optional and, when given, must be its project',
        tag: 'assets',
        response: { status: 200, schema: AssetBody },
        errors: ['not_found', 'conflict'],
      },
      handler: async ({ principal, params, body }) => ({ status: 200, body: assetJson(await assets.update(principal, params.id, body)) }),
    }),
    route({
      method: 'DELETE',
      path: '/assets/{id}',
      auth: 'api_key',
      params: AssetIdParams,
      doc: {
        operationId: 'deleteAsset',
        summary: 'Delete an asset without transactions (projects using it as primary fall back to their oldest remaining asset)',
        tag: 'assets',
        response: { status: 200, schema: AssetDeletedBody },
        errors: ['validation_error', 'not_found', 'asset_in_use'],
      },
      handler: async ({ principal, params }) => ({ status: 200, body: await assets.delete(principal, params.id) }),
    }),
  ];
}
