import { z } from 'zod';
import { HOLD_STATUSES } from '../domain/holds/hold.types.js';
import { ExpiresInRule } from '../domain/ledger/ledger.rules.js';
import { MatureInRule } from '../domain/holds/maturity.rules.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { pagination, PaginationBody } from '../json/page.json.js';
import { TransactionBody, transactionJson } from '../json/transaction.json.js';
import { HoldBody, holdJson } from '../json/hold.json.js';
import { DryRunQuery, dryRunBody, NoQuery, postedReply } from './dry-run.js';
import { Amount, Conditions, Metadata, PageQuery, ProjectId, ProjectIdQuery, Reference, Symbol, Uuid, WalletRef } from './schemas.js';

const CreateHoldBody = z.strictObject({
  amount: Amount,
  currency: Symbol,
  from: WalletRef,
  to: WalletRef,
  projectId: ProjectId,
  expiresIn: ExpiresInRule.optional(),
  matureIn: MatureInRule.optional().meta({ description: 'A maturing hold (a pending credit): seconds after which it captures itself for its whole amount, unless voided or captured first. Not with expiresIn or matureAt.' }),
  matureAt: z.string().optional().meta({ description: 'A maturing hold: the ISO 8601 instant (with Z or an offset), at least 60 s ahead, at which it captures itself. Not with expiresIn or matureIn.', format: 'date-time' }),
  reference: Reference.optional(),
  metadata: Metadata.optional(),
}).meta({ id: 'CreateHoldRequest' });
const CaptureBody = z.strictObject({ projectId: ProjectId, amount: Amount.optional(), conditions: Conditions.optional() }).meta({ id: 'CaptureHoldRequest' });
const VoidBody = z.strictObject({ projectId: ProjectId }).meta({ id: 'VoidHoldRequest' });
const HoldIdParams = z.strictObject({ id: Uuid });
const HoldListQuery = z.strictObject({ projectId: ProjectIdQuery, walletId: WalletRef.optional(), status: z.enum(HOLD_STATUSES).optional(), ...PageQuery });

const CreateHoldReply = z.object({ hold: HoldBody }).meta({ id: 'HoldResult' });
const CaptureReply = z.object({ transaction: TransactionBody, hold: HoldBody }).meta({ id: 'CaptureResult' });

export function holdRoutes({ holds }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/holds',
      auth: 'api_key',
      body: CreateHoldBody,
      query: DryRunQuery,
      doc: {
        operationId: 'createHold',
        summary: "Reserve an amount of the sender's available funds for a later capture or void (nothing is posted)",
        tag: 'holds',
        response: { status: 201, schema: CreateHoldReply },
        dryRun: dryRunBody(CreateHoldReply),
        errors: ['not_found', 'insufficient_funds', 'wallet_inactive', 'limit_exceeded', 'conflict'],
      },
      handler: async ({ principal, body, query: { dryRun } }) => postedReply(dryRun, { hold: holdJson(await holds.create(principal, body, { dryRun })) }),
    }),
    route({
      method: 'POST',
      path: '/holds/{id}/capture',
      auth: 'api_key',
      params: HoldIdParams,
      body: CaptureBody,
      query: DryRunQuery,
      doc: {
        operationId: 'captureHold',
        summary: "Post the hold (or `amount` of it) from → to and release the rest (balance: the sender's)",
        tag: 'holds',
        response: { status: 201, schema: CaptureReply },
        dryRun: dryRunBody(CaptureReply),
        errors: ['not_found', 'wallet_inactive', 'hold_expired', 'hold_not_pending', 'limit_exceeded', 'condition_failed', 'conflict'],
      },
      handler: async ({ principal, params, body, query: { dryRun } }) => {
        const { transaction, hold } = await holds.capture(principal, params.id, body, { dryRun });
        return postedReply(dryRun, { transaction: transactionJson(transaction), hold: holdJson(hold) });
      },
    }),
    route({
      method: 'POST',
      path: '/holds/{id}/void',
      auth: 'api_key',
      params: HoldIdParams,
      body: VoidBody,
      // no parameter at all: a void cannot be dry-run (CONTRACT §24 lists the six routes that can), so
      // `?dryRun=true` here is refused rather than ignored — ignored, it would void for real
      query: NoQuery,
      doc: {
        operationId: 'voidHold',
        summary: 'Release a pending hold',
        tag: 'holds',
        response: { status: 200, schema: z.object({ hold: HoldBody }) },
        errors: ['not_found', 'hold_expired', 'hold_not_pending'],
      },
      handler: async ({ principal, params, body }) => ({ status: 200, body: { hold: holdJson(await holds.void(principal, params.id, body)) } }),
    }),
    route({
      method: 'GET',
      path: '/holds/{id}',
      auth: 'api_key',
      params: HoldIdParams,
      doc: { operationId: 'getHold', summary: 'One hold', tag: 'holds', response: { status: 200, schema: z.object({ hold: HoldBody }) }, errors: ['validation_error', 'not_found'] },
      handler: async ({ principal, params }) => ({ status: 200, body: { hold: holdJson(await holds.get(principal, params.id)) } }),
    }),
    route({
      method: 'GET',
      path: '/holds',
      auth: 'api_key',
      query: HoldListQuery,
      doc: {
        operationId: 'listHolds',
        summary: "A project's holds, newest first; walletId (id or address) matches either side",
        tag: 'holds',
        response: { status: 200, schema: z.object({ holds: z.array(HoldBody), pagination: PaginationBody }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query }) => {
        const page = await holds.list(principal, query);
        return { status: 200, body: { holds: page.items.map(holdJson), pagination: pagination(query.page, query.limit, page.total) } };
      },
    }),
  ];
}
