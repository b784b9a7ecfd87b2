import type { Principal } from '../auth/api-key.service.js';
import { LedgerError, notFound, validationError } from '../errors.js';
import { toMinor } from '../money.js';
import type { PostingContext, PostingRepository } from './posting.repository.js';
import { checkReferences } from './ledger.rules.js';
import type { AssetRef, WalletRef } from './ledger.types.js';

/** Where a posting's amount comes from: major units, or already-converted minor units (webhook fiat). */
export type AmountSource = number | string | ((asset: AssetRef) => bigint);

export interface MovementInput {
  projectId: number;
  currency: string;
  from: string;
  to: string;
  amount: AmountSource;
}

export interface Movement {
  context: PostingContext;
  asset: AssetRef;
  from: WalletRef;
  to: WalletRef;
  amount: bigint;
}

/**
 * The checks every movement between two wallets shares (a transfer, a batch leg, a hold), in the
 * contract's order: fields (400) before existence (404); the amount's decimals need the asset.
 * `field` prefixes the field names (batch legs: `transfers.3.`).
 */
export async function resolveMovement(repository: PostingRepository, principal: Principal, input: MovementInput, field = ''): Promise<Movement> {
  try {
    checkReferences({ from: input.from, to: input.to }, input.currency);
  } catch (error) {
    throw prefixed(error, field);
  }
  if (input.from === input.to) throw validationError(`${field}to`, 'must be a different wallet than from');
  const context = await resolveContext(repository, principal, input.projectId, input.currency, input.from, input.to);
  const asset = context.asset!;
  const amount = minorAmount(input.amount, asset, `${field}amount`);
  const { from, to } = requireWallets(context, input.from, input.to);
  if (from!.id === to.id) throw validationError(`${field}to`, 'must be a different wallet than from');
  return { context, asset, from: from!, to, amount };
}

export async function resolveContext(repository: PostingRepository, principal: Principal, projectId: number, currency: string, fromRef: string | null, toRef: string): Promise<PostingContext> {
  const context = await repository.resolvePosting(principal.ownerId, projectId, currency, fromRef, toRef);
  if (!context) throw notFound('project', projectId);
  if (!context.asset) throw notFound('currency', currency);
  return context;
}

/** The resolved wallets of a posting, or 404 for the one that names no wallet of the project. */
export function requireWallets(context: PostingContext, fromRef: string | null, toRef: string): { from: WalletRef | null; to: WalletRef } {
  if (fromRef !== null && !context.from) throw notFound('wallet', fromRef);
  if (!context.to) throw notFound('wallet', toRef);
  return { from: context.from, to: context.to };
}

export function minorAmount(source: AmountSource, asset: AssetRef, field = 'amount'): bigint {
  return typeof source === 'function' ? source(asset) : toMinor(source, asset.fractions, field);
}

function prefixed(error: unknown, field: string): unknown {
  if (!field || !(error instanceof LedgerError) || error.code !== 'validation_error') return error;
  const fields = (error.details.fields as { field: string; problem: string }[] | undefined) ?? [];
  const renamed = fields.map((f) => ({ field: `${field}${f.field}`, problem: f.problem }));
  return new LedgerError('validation_error', renamed.map((p) => `${p.field}: ${p.problem}`).join('; '), { ...error.details, field: renamed[0]?.field, fields: renamed });
}
