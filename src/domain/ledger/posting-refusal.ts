import { LedgerError, notFound } from '../errors.js';
import { toMajor } from '../money.js';
import type { PostingResult } from './ledger.types.js';

/*
 * Every refusal a posting routine can answer (insufficient funds, an inactive wallet, a limit…),
 * mapped in one place on the ledger floor to its contract error: the features above (holds,
 * limits, webhooks) post through the ledger and never map a refusal of their own.
 */

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
      // detail from limits_check.sql; `remaining` in minor units
      return new LedgerError('limit_exceeded', 'a spending or earning limit would be exceeded', { ...index, limitId: detail.limitId, remaining: toMajor(BigInt(String(detail.remaining ?? '0')), fractions) });
    case 'condition_failed': {
      // detail from ledger_conditions.sql (via ledger_post): `actual` in minor units of the condition's own currency
      const actual = toMajor(BigInt(String(detail.actual ?? '0')), Number(detail.fractions ?? fractions));
      const which = detail.condition === undefined ? { index: detail.index } : { index: detail.index, condition: detail.condition };
      return new LedgerError('condition_failed', 'a condition on the balances after the posting does not hold', { ...which, actual });
    }
    default:
      return new LedgerError('internal_error', 'unexpected posting outcome');
  }
}

/** A posting's outcome as the metrics name it (CONTRACT §17): `posted`, or its refusal's error code. */
export function postingOutcome(result: PostingResult): string {
  return result.code === 'ok' ? 'posted' : refusal({ ...result, detail: { reversible: '0', ...result.detail } }, 0).code;
}
