import type { Principal } from '../auth/api-key.service.js';
import { LedgerError, notFound, validationError } from '../errors.js';
import { toMajor, toMinor } from '../money.js';
import type { PostingContext, PostingRepository } from './posting.repository.js';
import { checkReferences } from './ledger.rules.js';
import { limitExceeded } from '../limits/limit.rules.js';
import type { AssetRef, PostingResult, WalletRef } from './ledger.types.js';

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

/** The contract error of a refused posting (`fractions` converts minor-unit details to major units). */
export function refusal(result: PostingResult, fractions: number): LedgerError {
  const detail = result.detail ?? {};
  const index = detail.index === undefined ? {} : { index: detail.index };
  switch (result.code) {
    case 'insufficient_funds':
      return new LedgerError('insufficient_funds', 'the sender does not have enough available funds', index);
    case 'wallet_inactive':
      return new LedgerError('wallet_inactive', 'both wallets must be active', index);
    case 'balance_overflow':
      return new LedgerError('conflict', 'the receiving balance would exceed its maximum', index);
    case 'asset_missing':
      return new LedgerError('not_found', 'currency not found (the asset was deleted)', index);
    case 'request_key_mismatch':
      return new LedgerError('conflict', 'this idempotent request already made a different posting', index);
    case 'reference_taken':
      return new LedgerError('conflict', 'the reference is already used in this project', { ...index, existingId: detail.existingId });
    case 'hold_missing':
      return notFound('hold');
    case 'hold_not_pending':
      return new LedgerError('hold_not_pending', 'the hold is no longer pending (captured or voided)', index);
    case 'hold_expired':
      return new LedgerError('hold_expired', 'the hold has expired', index);
    case 'not_reversible':
      return new LedgerError('conflict', 'this transaction cannot be reversed (it is itself a reversal)', index);
    case 'reversal_exceeds':
      return new LedgerError('conflict', 'the reversals would exceed the original amount', { ...index, reversible: toMajor(BigInt(String(detail.reversible)), fractions) });
    case 'limit_exceeded':
      return limitExceeded(detail, fractions, index);
    default:
      return new LedgerError('internal_error', 'unexpected posting outcome');
  }
}

function prefixed(error: unknown, field: string): unknown {
  if (!field || !(error instanceof LedgerError) || error.code !== 'validation_error') return error;
  const fields = (error.details.fields as { field: string; problem: string }[] | undefined) ?? [];
  const renamed = fields.map((f) => ({ field: `${field}${f.field}`, problem: f.problem }));
  return new LedgerError('validation_error', renamed.map((p) => `${p.field}: ${p.problem}`).join('; '), { ...error.details, field: renamed[0]?.field, fields: renamed });
}

/** A posting's outcome as the metrics name it (CONTRACT §17): `posted`, or its refusal's error code. */
export function postingOutcome(result: PostingResult): string {
  return result.code === 'ok' ? 'posted' : refusal({ ...result, detail: { reversible: '0', ...result.detail } }, 0).code;
}
