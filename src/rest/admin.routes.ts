import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { pagination } from '../json/page.json.js';
import { keyJson } from '../json/api-key.json.js';
import { IssuedKeyBody, IssueKeyBody, KeyIdParams, KeyListBody, KeyListQuery, KeyRevokedBody } from './admin.schemas.js';

/** Key management (CONTRACT §2, §17): header `admin_token`; without LEDGER_ADMIN_TOKEN every /admin route is 404. */
export function adminRoutes({ apiKeys }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/admin/api-keys',
      auth: 'admin',
      body: IssueKeyBody,
      doc: {
        operationId: 'issueApiKey',
        summary: "Issue an API key (the owner is created, or moved to plan_code); the key is shown only here",
        tag: 'admin',
        response: { status: 201, schema: IssuedKeyBody },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ body }) => ({ status: 201, body: await apiKeys.issue(body.owner, body.plan_code) }),
    }),
    route({
      method: 'GET',
      path: '/admin/api-keys',
      auth: 'admin',
      query: KeyListQuery,
      doc: {
        operationId: 'listApiKeys',
        summary: "An owner's live keys, oldest first (never the key: its id and prefix)",
        tag: 'admin',
        response: { status: 200, schema: KeyListBody },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ query }) => {
        const page = await apiKeys.list(query.owner, query);
        return { status: 200, body: { keys: page.items.map(keyJson), pagination: pagination(query.page, query.limit, page.total) } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/admin/api-keys/{id}',
      auth: 'admin',
      params: KeyIdParams,
      doc: {
        operationId: 'revokeApiKey',
        summary: 'Revoke a key: from then on it answers 401 (and is no longer listed); the owner keeps its other keys',
        tag: 'admin',
        response: { status: 200, schema: KeyRevokedBody },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ params }) => ({ status: 200, body: await apiKeys.revoke(params.id) }),
    }),
  ];
}
