import { z } from 'zod';
import { route, type Route } from '../http/route.js';
import type { WalletType } from '../domain/wallets/wallet.types.js';
import type { Services } from '../services.js';
import { pagination } from '../json/page.json.js';
import { WalletBody, walletJson } from '../json/wallet.json.js';
import { CreateWalletBody, WalletIdParams, WalletListBody, WalletAsOfBody, walletAsOf, WalletListQuery, WalletQuery, WalletStatusBody, WalletTypeParams, WalletWithActivityBody, walletsWithActivity } from './wallets.schemas.js';

const LIST_OPERATION: Record<WalletType, string> = { customer: 'listCustomerWallets', system: 'listSystemWallets' };


/** `GET /wallets/{id}` names the wallet's group (CONTRACT §29). */
const GroupIdField = { groupId: z.string().nullable().meta({ description: 'Its wallet group; null when none' }) };
export function walletRoutes({ wallets, history: ledger }: Services): Route[] {
  const list = (type: WalletType): Route =>
    route({
      method: 'GET',
      path: `/wallets/${type}`,
      auth: 'api_key',
      query: WalletListQuery,
      doc: {
        operationId: LIST_OPERATION[type],
        summary: `Your ${type} wallets (optionally of one project), oldest first, with balances and 20 newest transactions`,
        tag: 'wallets',
        response: { status: 200, schema: WalletListBody },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query }) => {
        const page = await wallets.list(principal, type, query);
        return { status: 200, body: { wallets: await walletsWithActivity(ledger, page.items), pagination: pagination(query.page, query.limit, page.total) } };
      },
    });

  return [
    route({
      method: 'POST',
      path: '/wallets/create/{type}',
      auth: 'api_key',
      params: WalletTypeParams,
      body: CreateWalletBody,
      doc: {
        operationId: 'createWallet',
        summary: 'Create a customer or system wallet (address generated when absent)',
        tag: 'wallets',
        response: { status: 201, schema: WalletBody },
        errors: ['not_found', 'quota_exceeded', 'conflict'],
      },
      handler: async ({ principal, params, body }) => ({ status: 201, body: walletJson(await wallets.create(principal, params.type, body)) }),
    }),
    list('customer'),
    list('system'),
    route({
      method: 'GET',
      path: '/wallets/{id}',
      auth: 'api_key',
      params: WalletIdParams,
      query: WalletQuery,
      doc: {
        operationId: 'getWallet',
        summary:
          'One wallet with its balances and 20 newest transactions; with `asOf` (ISO 8601 with Z or an offset), as it was at that instant: posted balances, no holds (400 for an instant in the future or before the wallet)',
        tag: 'wallets',
        response: { status: 200, schema: z.union([WalletWithActivityBody.extend(GroupIdField), WalletAsOfBody.extend(GroupIdField)]) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params, query }) => {
        const found = await wallets.get(principal, params.id);
        if (query.asOf) return { status: 200, body: { ...(await walletAsOf(ledger, found, query.asOf)), groupId: found.groupId } };
        const [wallet] = await walletsWithActivity(ledger, [found]);
        return { status: 200, body: { ...wallet, groupId: found.groupId } };
      },
    }),
    route({
      method: 'PUT',
      path: '/wallets/status/{id}',
      auth: 'api_key',
      params: WalletIdParams,
      body: WalletStatusBody,
      doc: {
        operationId: 'setWalletStatus',
        summary: 'Set a wallet status: active ⇄ suspended, → closed with all balances zero; closed is final',
        tag: 'wallets',
        response: { status: 200, schema: WalletBody },
        errors: ['not_found', 'conflict', 'wallet_not_empty'],
      },
      handler: async ({ principal, params, body }) => ({ status: 200, body: walletJson(await wallets.setStatus(principal, params.id, body)) }),
    }),
  ];
}
