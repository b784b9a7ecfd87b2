import { z } from 'zod';
import { DirectionRule, WindowSecondsRule } from '../domain/limits/limit.rules.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { pagination, PaginationBody } from '../json/page.json.js';
import { LimitBody, limitJson, LimitUsageBody, limitUsageJson } from '../json/limit.json.js';
import { Amount, PageQuery, ProjectId, ProjectIdQuery, Symbol, Uuid, WalletRef } from './schemas.js';

const CreateLimitBody = z.strictObject({
  projectId: ProjectId,
  currency: Symbol,
  direction: DirectionRule.meta({ description: '`debit`: money leaving the wallet; `credit`: money arriving' }),
  amount: Amount.meta({ description: 'The most the wallet may move in the window (major units)' }),
  windowSeconds: WindowSecondsRule.meta({ description: 'The window, in seconds: (now − windowSeconds, now]' }),
  walletId: WalletRef.optional().meta({ description: 'One wallet of the project (id or address); absent: every customer wallet of the project' }),
});
const LimitIdParams = z.strictObject({ id: Uuid });
const WalletIdParams = z.strictObject({ id: Uuid });
const LimitListQuery = z.strictObject({ projectId: ProjectIdQuery, walletId: WalletRef.optional(), ...PageQuery });

/** Spending and earning limits (CONTRACT §19). */
export function limitRoutes({ limits }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/limits',
      auth: 'api_key',
      body: CreateLimitBody,
      doc: {
        operationId: 'createLimit',
        summary: 'Limit what a wallet (or every customer wallet of the project) may send or receive in a sliding window; postings that would pass it answer 409 limit_exceeded. At most 50 limits per project (403 quota_exceeded)',
        tag: 'limits',
        response: { status: 201, schema: z.object({ limit: LimitBody }) },
        errors: ['validation_error', 'quota_exceeded', 'not_found'],
      },
      handler: async ({ principal, body }) => ({ status: 201, body: { limit: limitJson(await limits.create(principal, body)) } }),
    }),
    route({
      method: 'GET',
      path: '/limits',
      auth: 'api_key',
      query: LimitListQuery,
      doc: {
        operationId: 'listLimits',
        summary: "A project's limits, oldest first; with walletId, that wallet's own limits only",
        tag: 'limits',
        response: { status: 200, schema: z.object({ limits: z.array(LimitBody), pagination: PaginationBody }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query }) => {
        const page = await limits.list(principal, query);
        return { status: 200, body: { limits: page.items.map(limitJson), pagination: pagination(query.page, query.limit, page.total) } };
      },
    }),
    route({
      method: 'DELETE',
      path: '/limits/{id}',
      auth: 'api_key',
      params: LimitIdParams,
      doc: {
        operationId: 'deleteLimit',
        summary: 'Delete a limit: it binds no posting from now on',
        tag: 'limits',
        response: { status: 200, schema: z.object({ id: z.string(), deleted: z.literal(true) }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params }) => ({ status: 200, body: await limits.delete(principal, params.id) }),
    }),
    route({
      method: 'GET',
      path: '/wallets/{id}/limits',
      auth: 'api_key',
      params: WalletIdParams,
      doc: {
        operationId: 'getWalletLimits',
        summary: 'The limits that apply to the wallet now, for every currency and direction, with what it used of each and what remains',
        tag: 'wallets',
        response: { status: 200, schema: z.object({ limits: z.array(LimitUsageBody) }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params }) => ({ status: 200, body: { limits: (await limits.usage(principal, params.id)).map(limitUsageJson) } }),
    }),
  ];
}
