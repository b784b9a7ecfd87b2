import { z } from 'zod';
import { GroupNameRule } from '../domain/wallet-groups/wallet-group.rules.js';
import { MetadataRule } from '../domain/projects/project.rules.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { pagination, PaginationBody } from '../json/page.json.js';
import { WalletGroupBody, WalletGroupDetailBody, walletGroupDetailJson, walletGroupJson } from '../json/wallet-group.json.js';
import { AsOfQuery, PageQuery, ProjectId, ProjectIdQuery, Uuid, WalletRef } from './schemas.js';

const CreateGroupBody = z.strictObject({
  projectId: ProjectId,
  name: GroupNameRule.meta({ description: '1 to 100 characters' }),
  parentId: Uuid.nullish().meta({ description: 'The parent group; absent or null: a root' }),
  metadata: MetadataRule.nullish(),
});
const UpdateGroupBody = z.strictObject({
  projectId: ProjectId,
  name: GroupNameRule.optional(),
  parentId: Uuid.nullable().optional().meta({ description: 'The new parent; null: a root; absent: unchanged' }),
});
const MembershipBody = z.strictObject({ projectId: ProjectId });
const GroupIdParams = z.strictObject({ id: Uuid });
const MemberParams = z.strictObject({ id: Uuid, walletId: WalletRef.meta({ description: 'A wallet id or address of the project' }) });
const GroupQuery = z.strictObject({ asOf: AsOfQuery.optional() });
const GroupListQuery = z.strictObject({ projectId: ProjectIdQuery, parentId: Uuid.optional().meta({ description: "Its children; absent: the project's roots" }), ...PageQuery });
const GroupAnswer = z.object({ group: WalletGroupDetailBody });

/** Wallet groups and their roll-up balances (CONTRACT §29). */
export function walletGroupRoutes({ walletGroups }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/wallet-groups',
      auth: 'api_key',
      body: CreateGroupBody,
      doc: {
        operationId: 'createWalletGroup',
        summary: 'Create a wallet group, a root or under a parent (a tree at most 8 deep; at most 10,000 groups per project: 403 quota_exceeded)',
        tag: 'wallet-groups',
        response: { status: 201, schema: z.object({ group: WalletGroupBody }) },
        errors: ['validation_error', 'quota_exceeded', 'not_found'],
      },
      handler: async ({ principal, body }) => ({ status: 201, body: { group: walletGroupJson(await walletGroups.create(principal, body)) } }),
    }),
    route({
      method: 'GET',
      path: '/wallet-groups',
      auth: 'api_key',
      query: GroupListQuery,
      doc: {
        operationId: 'listWalletGroups',
        summary: "A project's root groups, or the children of parentId, oldest first",
        tag: 'wallet-groups',
        response: { status: 200, schema: z.object({ groups: z.array(WalletGroupBody), pagination: PaginationBody }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query }) => {
        const page = await walletGroups.list(principal, query);
        return { status: 200, body: { groups: page.items.map(walletGroupJson), pagination: pagination(query.page, query.limit, page.total) } };
      },
    }),
    route({
      method: 'GET',
      path: '/wallet-groups/{id}',
      auth: 'api_key',
      params: GroupIdParams,
      query: GroupQuery,
      doc: {
        operationId: 'getWalletGroup',
        summary:
          "A group with its balances summed over every wallet of its subtree (one entry per currency one of them holds) and its direct subgroups; with asOf, the posted balances then of the group's current wallets",
        tag: 'wallet-groups',
        response: { status: 200, schema: GroupAnswer },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params, query }) => ({ status: 200, body: { group: walletGroupDetailJson(await walletGroups.get(principal, params.id, query.asOf)) } }),
    }),
    route({
      method: 'PUT',
      path: '/wallet-groups/{id}',
      auth: 'api_key',
      params: GroupIdParams,
      body: UpdateGroupBody,
      doc: {
        operationId: 'updateWalletGroup',
        summary: 'Rename a group or move it under another parent (or to the roots); a move that would make a cycle or a tree over 8 deep: 400',
        tag: 'wallet-groups',
        response: { status: 200, schema: GroupAnswer },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params, body }) => ({ status: 200, body: { group: walletGroupDetailJson(await walletGroups.update(principal, params.id, body)) } }),
    }),
    route({
      method: 'DELETE',
      path: '/wallet-groups/{id}',
      auth: 'api_key',
      params: GroupIdParams,
      doc: {
        operationId: 'deleteWalletGroup',
        summary: 'Delete a group without wallets and without subgroups (else 409 conflict)',
        tag: 'wallet-groups',
        response: { status: 200, schema: z.object({ id: z.string(), deleted: z.literal(true) }) },
        errors: ['validation_error', 'not_found', 'conflict'],
      },
      handler: async ({ principal, params }) => ({ status: 200, body: await walletGroups.delete(principal, params.id) }),
    }),
    route({
      method: 'PUT',
      path: '/wallet-groups/{id}/wallets/{walletId}',
      auth: 'api_key',
      params: MemberParams,
      body: MembershipBody,
      doc: {
        operationId: 'addWalletToGroup',
        summary: 'Put a wallet in the group (a wallet is in at most one group: out of the one it was in)',
        tag: 'wallet-groups',
        response: { status: 200, schema: GroupAnswer },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params, body }) => ({ status: 200, body: { group: walletGroupDetailJson(await walletGroups.addWallet(principal, params.id, params.walletId, body)) } }),
    }),
    route({
      method: 'DELETE',
      path: '/wallet-groups/{id}/wallets/{walletId}',
      auth: 'api_key',
      params: MemberParams,
      body: MembershipBody,
      doc: {
        operationId: 'removeWalletFromGroup',
        summary: 'Take a wallet out of the group (404 when it is not in it)',
        tag: 'wallet-groups',
        response: { status: 200, schema: GroupAnswer },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params, body }) => ({ status: 200, body: { group: walletGroupDetailJson(await walletGroups.removeWallet(principal, params.id, params.walletId, body)) } }),
    }),
  ];
}
