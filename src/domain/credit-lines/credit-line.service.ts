import type { Principal } from '../auth/api-key.service.js';
import { conflict, notFound, validationError } from '../errors.js';
import type { PostingRepository } from '../ledger/posting.repository.js';
import { toMinorSigned } from '../money.js';
import { UuidRule } from '../shared/ids.js';
import { checkField, checkInput } from '../shared/validation.js';
import type { CreditLineRepository } from './credit-line.repository.js';
import { SetCreditLineRules } from './credit-line.rules.js';
import type { CreditLineView, SetCreditLineInput } from './credit-line.types.js';

/**
 * Credit lines (CONTRACT §28): how far below zero a wallet may go in one currency. Setting one is
 * this service's; the rule itself is the posting routines' (`available = balance − held +
 * credit_limit` in the statement that spends, ledger_move.sql), so it holds on any number of instances.
 */
export class CreditLineService {
  constructor(
    private readonly lines: CreditLineRepository,
    private readonly postings: PostingRepository,
  ) {}

  /**
   * Sets (0: removes) the wallet's line in `currency`; any wallet type. Lowering it below what is
   * used is allowed: nothing is reversed, and the wallet only receives until available > 0.
   * Errors: validation_error (a field; an asset that expires), not_found (the project, the wallet
   * in that project, the currency), conflict (a closed wallet).
   */
  async set(principal: Principal, walletId: string, input: SetCreditLineInput): Promise<CreditLineView> {
    checkField('id', UuidRule, walletId);
    const data = checkInput(SetCreditLineRules, input);
    const context = await this.postings.resolvePosting(principal.ownerId, data.projectId, data.currency, null, walletId);
    if (!context?.to || context.to.id !== walletId.toLowerCase()) throw notFound('wallet', walletId);
    if (!context.asset) throw notFound('currency', data.currency);
    const asset = context.asset;
    const limit = toMinorSigned(data.limit, asset.fractions, 'limit');
    if (limit < 0n) throw validationError('limit', 'must be zero or more');
    const refusal = await this.lines.set(context.projectId, context.to.id, asset.id, limit);
    if (refusal === 'wallet_closed') throw conflict('a closed wallet cannot have a credit line', { status: 'closed' });
    if (refusal === 'asset_expiring') throw validationError('currency', 'an asset whose points expire cannot have credit lines');
    if (refusal === 'asset_missing') throw notFound('currency', data.currency);
    return { walletId: context.to.id, currency: asset.symbol, fractions: asset.fractions, limit };
  }
}
