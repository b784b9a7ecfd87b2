import { z } from 'zod';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { MAX_BATCH_LEGS } from '../domain/ledger/posting.service.js';
import { BalanceAsOfBody, balanceAsOfJson, BalanceBody, balanceJson } from '../json/balance.json.js';
import { pagination, PaginationBody } from '../json/page.json.js';
import { TransactionBody, transactionJson } from '../json/transaction.json.js';
import { DryRunQuery, dryRunBody, postedReply } from './dry-run.js';
import { Amount, Conditions, AsOfQuery, Metadata, PageQuery, ProjectId, ProjectIdQuery, Reference, Symbol, Uuid, WalletRef } from './schemas.js';

const Annotations = { reference: Reference.optional(), metadata: Metadata.optional() };
const TransferBody = z.strictObject({ amount: Amount, currency: Symbol, from: WalletRef, to: WalletRef, projectId: ProjectId, ...Annotations, conditions: Conditions.optional() }).meta({ id: 'TransferRequest' });
const SeedBody = z.strictObject({ amount: Amount, currency: Symbol, projectId: ProjectId, to: WalletRef, ...Annotations }).meta({ id: 'SeedRequest' });
const LegBody = z.strictObject({ amount: Amount, currency: Symbol, from: WalletRef, to: WalletRef, ...Annotations, conditions: Conditions.optional() }).meta({ id: 'BatchLeg' });
const BatchBody = z.strictObject({ projectId: ProjectId, transfers: z.array(LegBody).min(1).max(MAX_BATCH_LEGS) }).meta({ id: 'BatchRequest' });
const ReverseBody = z.strictObject({ projectId: ProjectId, amount: Amount.optional(), ...Annotations }).meta({ id: 'ReverseRequest' });
const IdParams = z.strictObject({ id: Uuid });
const HistoryQuery = z.strictObject({ walletId: WalletRef, projectId: ProjectIdQuery.optional(), currency: Symbol.optional(), reference: Reference.optional(), asOf: AsOfQuery.optional(), ...PageQuery });
const HistoryBody = z.object({ balance: BalanceBody, pagination: PaginationBody, transactions: z.array(TransactionBody) }).meta({ id: 'WalletHistory' });
const TransferReply = z.object({ transaction: TransactionBody }).meta({ id: 'TransactionResult' });
const SeedReply = z.object({ transaction: z.array(TransactionBody) }).meta({ id: 'SeedResult' });
const BatchReply = z.object({ transactions: z.array(TransactionBody) }).meta({ id: 'BatchResult' });
const HistoryAsOfBody = z.object({ balance: BalanceAsOfBody, pagination: PaginationBody, transactions: z.array(TransactionBody) }).meta({ id: 'WalletHistoryAsOf' });

export function transactionRoutes({ ledger, history }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/transactions',
      auth: 'api_key',
      body: TransferBody,
      query: DryRunQuery,
      doc: {
        operationId: 'createTransaction',
        summary: 'Transfer between two wallets of a project (balance: the sender’s resulting balance)',
        tag: 'transactions',
        response: { status: 201, schema: TransferReply },
        dryRun: dryRunBody(TransferReply),
        errors: ['not_found', 'insufficient_funds', 'wallet_inactive', 'limit_exceeded', 'condition_failed', 'conflict'],
      },
      handler: async ({ principal, body, query: { dryRun } }) => postedReply(dryRun, { transaction: transactionJson(await ledger.transfer(principal, body, { dryRun })) }),
    }),
    route({
      method: 'POST',
      path: '/transactions/seed',
      auth: 'api_key',
      body: SeedBody,
      query: DryRunQuery,
      doc: {
        operationId: 'seedTransaction',
        summary: 'Mint into a system wallet from @mint',
        tag: 'transactions',
        response: { status: 201, schema: SeedReply },
        dryRun: dryRunBody(SeedReply),
        errors: ['not_found', 'wallet_inactive', 'limit_exceeded', 'conflict'],
      },
      handler: async ({ principal, body, query: { dryRun } }) => postedReply(dryRun, { transaction: [transactionJson(await ledger.seed(principal, body, { dryRun }))] }),
    }),
    route({
      method: 'POST',
      path: '/transactions/batch',
      auth: 'api_key',
      body: BatchBody,
      query: DryRunQuery,
      doc: {
        operationId: 'createTransactionBatch',
        summary: '1–100 transfers in one database transaction, in order: all post or none does (a refusal names the leg in details.index)',
        tag: 'transactions',
        response: { status: 201, schema: BatchReply },
        dryRun: dryRunBody(BatchReply),
        errors: ['not_found', 'insufficient_funds', 'wallet_inactive', 'limit_exceeded', 'condition_failed', 'conflict'],
      },
      handler: async ({ principal, body, query: { dryRun } }) => postedReply(dryRun, { transactions: (await ledger.batch(principal, body, { dryRun })).map(transactionJson) }),
    }),
    route({
      method: 'POST',
      path: '/transactions/{id}/reverse',
      auth: 'api_key',
      params: IdParams,
      body: ReverseBody,
      query: DryRunQuery,
      doc: {
        operationId: 'reverseTransaction',
        summary: 'Reverse a transaction (all that is still reversible, or `amount`): from its receiver back to its sender, @mint for a seed',
        tag: 'transactions',
        response: { status: 201, schema: TransferReply },
        dryRun: dryRunBody(TransferReply),
        errors: ['not_found', 'insufficient_funds', 'wallet_inactive', 'conflict'],
      },
      handler: async ({ principal, params, body, query: { dryRun } }) =>
        postedReply(dryRun, { transaction: transactionJson(await ledger.reverse(principal, params.id, body, { dryRun })) }),
    }),
    route({
      method: 'GET',
      path: '/transactions',
      auth: 'api_key',
      query: HistoryQuery,
      doc: {
        operationId: 'listWalletTransactions',
        summary:
          'A wallet’s balance in one currency and its transactions in it, newest first; with `asOf`, as they were at that instant (balance and total after the last transaction at or before it)',
        tag: 'transactions',
        response: { status: 200, schema: z.union([HistoryBody, HistoryAsOfBody]) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query: { asOf, ...query } }) => {
        if (asOf) {
          const page = await history.historyAsOf(principal, { ...query, asOf });
          return {
            status: 200,
            body: { balance: balanceAsOfJson(page.balance), pagination: pagination(query.page, query.limit, page.total), transactions: page.rows.map(transactionJson) },
          };
        }
        const page = await history.history(principal, query);
        return {
          status: 200,
          body: { balance: balanceJson(page.balance), pagination: pagination(query.page, query.limit, page.total), transactions: page.rows.map(transactionJson) },
        };
      },
    }),
  ];
}
