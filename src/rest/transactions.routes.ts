import { z } from 'zod';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { balanceAsOfJson, balanceJson, pagination, transactionJson } from './presenters.js';
import { Amount, AsOfQuery, BalanceAsOfBody, BalanceBody, PageQuery, PaginationBody, ProjectId, ProjectIdQuery, Symbol, TransactionBody, WalletRef } from './schemas.js';

const TransferBody = z.strictObject({ amount: Amount, currency: Symbol, from: WalletRef, to: WalletRef, projectId: ProjectId });
const SeedBody = z.strictObject({ amount: Amount, currency: Symbol, projectId: ProjectId, to: WalletRef });
const HistoryQuery = z.strictObject({ walletId: WalletRef, projectId: ProjectIdQuery.optional(), currency: Symbol.optional(), asOf: AsOfQuery.optional(), ...PageQuery });
const HistoryBody = z.object({ balance: BalanceBody, pagination: PaginationBody, transactions: z.array(TransactionBody) });
const HistoryAsOfBody = z.object({ balance: BalanceAsOfBody, pagination: PaginationBody, transactions: z.array(TransactionBody) });

export function transactionRoutes({ ledger }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/transactions',
      auth: 'api_key',
      body: TransferBody,
      doc: {
        summary: 'Transfer between two wallets of a project (balance: the sender’s resulting balance)',
        tag: 'transactions',
        response: { status: 201, schema: z.object({ transaction: TransactionBody }) },
        errors: ['not_found', 'insufficient_funds', 'wallet_inactive', 'conflict'],
      },
      handler: async ({ principal, body }) => ({ status: 201, body: { transaction: transactionJson(await ledger.transfer(principal, body)) } }),
    }),
    route({
      method: 'POST',
      path: '/transactions/seed',
      auth: 'api_key',
      body: SeedBody,
      doc: {
        summary: 'Mint into a system wallet from @mint',
        tag: 'transactions',
        response: { status: 201, schema: z.object({ transaction: z.array(TransactionBody) }) },
        errors: ['not_found', 'wallet_inactive', 'conflict'],
      },
      handler: async ({ principal, body }) => ({ status: 201, body: { transaction: [transactionJson(await ledger.seed(principal, body))] } }),
    }),
    route({
      method: 'GET',
      path: '/transactions',
      auth: 'api_key',
      query: HistoryQuery,
      doc: {
        summary:
          'A wallet’s balance in one currency and its transactions in it, newest first; with `asOf`, as they were at that instant (balance and total after the last transaction at or before it)',
        tag: 'transactions',
        response: { status: 200, schema: z.union([HistoryBody, HistoryAsOfBody]) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query: { asOf, ...query } }) => {
        if (asOf) {
          const page = await ledger.historyAsOf(principal, { ...query, asOf });
          return {
            status: 200,
            body: { balance: balanceAsOfJson(page.balance), pagination: pagination(query.page, query.limit, page.total), transactions: page.rows.map(transactionJson) },
          };
        }
        const page = await ledger.history(principal, query);
        return {
          status: 200,
          body: { balance: balanceJson(page.balance), pagination: pagination(query.page, query.limit, page.total), transactions: page.rows.map(transactionJson) },
        };
      },
    }),
  ];
}
