import { z } from 'zod';
import type { Principal } from '../auth/api-key.service.js';
import { LedgerError, notFound, validationError } from '../errors.js';
import type { PostingService } from '../ledger/posting.service.js';
import { CurrencyRule, WalletRefRule } from '../ledger/ledger.rules.js';
import type { HistoryRow, PostingSummary, WebhookCall } from '../ledger/ledger.types.js';
import { AmountRule, convertFiat, minorToDecimalString } from '../money.js';
import type { WebhookEvent, WebhookProject, WebhookRepository } from './webhook.repository.js';
import { toLedgerError } from '../shared/error-translation.js';
import { parseInput } from '../shared/validation.js';

export interface WebhookInput {
  flowId: string;
  projectId: number;
  values: Record<string, unknown>;
}

export interface WebhookOutcome {
  success: true;
  message: string;
}

/** A flow identifier (CONTRACT §5), checked here so that every transport applies it. */
export const FlowIdRule = z.string().min(1).max(200);
const Ref = WalletRefRule;
/** A JSON number, or an ExactNumber (a number the double would alter), read exactly (money.ts). */
const Points = AmountRule;
const RewardValues = z
  .strictObject({ to: Ref, amount: Points.optional(), fiatAmount: Points.optional(), from: Ref.optional(), currency: CurrencyRule.optional() })
  .refine((v) => (v.amount === undefined) !== (v.fiatAmount === undefined), { message: 'exactly one of amount and fiatAmount is required', path: ['amount'] });
const RedeemValues = z.strictObject({ from: Ref, amount: Points, to: Ref.optional(), currency: CurrencyRule.optional() });

/**
 * The inbound webhook. `reward` and `redeem` post a transfer through the ledger service (same
 * rules, same errors); any other flow is only recorded. Every call on one of the caller's
 * projects is stored as an event, refused ones included (success false, message = error code).
 * A posting flow's call is stored in the posting's own database transaction (CONTRACT §16): if it
 * cannot be stored, nothing is posted and the answer is an error.
 */
export class WebhookService {
  constructor(
    private readonly repository: WebhookRepository,
    private readonly ledger: PostingService,
  ) {}

  async handle(principal: Principal, input: WebhookInput): Promise<WebhookOutcome> {
    if (!FlowIdRule.safeParse(input.flowId).success) throw validationError('flowId', 'must be 1 to 200 characters');
    const project = await this.repository.project(principal.ownerId, input.projectId);
    if (!project) throw notFound('project', input.projectId);
    const event = { projectId: project.id, ownerId: principal.ownerId, flowId: input.flowId, values: input.values };
    // A posting flow's call, once the ledger has resolved what it moves: stored with the posting.
    let stored: WebhookCall | undefined;
    const call = (posting: PostingSummary): WebhookCall => (stored = { ownerId: principal.ownerId, flowId: input.flowId, values: input.values, message: postedMessage(input.flowId, posting) });
    let posted: HistoryRow | null;
    try {
      posted = await this.run(principal, project, input, call);
    } catch (error) {
      // Nothing was posted: the refusal is stored on its own (a 5xx — unexpected, or cut by the
      // statement time-out — stores nothing: the same call may come again).
      const refusal = toLedgerError(error);
      if (refusal.status < 500) {
        await this.repository.record({ ...event, success: false, message: `${refusal.code}: ${refusal.message}`, transactionId: null });
      }
      throw error;
    }
    if (posted) return { success: true, message: stored!.message };
    const message = `${input.flowId}: recorded`;
    await this.repository.record({ ...event, success: true, message, transactionId: null });
    return { success: true, message };
  }

  async events(principal: Principal, projectId: number, first: number, afterSeq: string | null): Promise<{ events: WebhookEvent[]; total: number }> {
    if (!(await this.repository.project(principal.ownerId, projectId))) throw notFound('project', projectId);
    return this.repository.list(projectId, first, afterSeq);
  }

  private async run(principal: Principal, project: WebhookProject, input: WebhookInput, record: (posting: PostingSummary) => WebhookCall): Promise<HistoryRow | null> {
    if (input.flowId === 'reward') {
      const values = parseInput(RewardValues, input.values, 'values', { nested: true });
      if (values.fiatAmount !== undefined && !project.supportExchangeRate) {
        throw validationError('values.fiatAmount', 'the project does not support an exchange rate');
      }
      const from = values.from ?? (await this.defaultSystemWallet(project.id));
      const currency = values.currency ?? (await this.primarySymbol(project.id));
      const fiat = values.fiatAmount;
      const amount = fiat === undefined ? values.amount! : (asset: { fractions: number }) => convertFiat(fiat, project.exchangeRate, asset.fractions);
      return this.ledger.transfer(principal, { projectId: project.id, currency, from, to: values.to, amount: values.amount ?? 0 }, { fromType: 'system', toType: 'customer', amount, record });
    }
    if (input.flowId === 'redeem') {
      const values = parseInput(RedeemValues, input.values, 'values', { nested: true });
      const to = values.to ?? (await this.defaultSystemWallet(project.id));
      const currency = values.currency ?? (await this.primarySymbol(project.id));
      return this.ledger.transfer(principal, { projectId: project.id, currency, from: values.from, to, amount: values.amount }, { fromType: 'customer', toType: 'system', record });
    }
    return null;
  }

  private async defaultSystemWallet(projectId: number): Promise<string> {
    const id = await this.repository.defaultSystemWallet(projectId);
    if (!id) throw new LedgerError('not_found', 'the project has no active system wallet', { projectId });
    return id;
  }

  private async primarySymbol(projectId: number): Promise<string> {
    const symbol = await this.repository.primarySymbol(projectId);
    if (!symbol) throw new LedgerError('not_found', 'the project has no asset', { projectId });
    return symbol;
  }
}

/** The message of a flow that posted: what moved, from where to where. */
function postedMessage(flowId: string, posting: PostingSummary): string {
  return `${flowId}: ${minorToDecimalString(posting.amount, posting.asset.fractions)} ${posting.asset.symbol} from ${posting.fromAddress} to ${posting.toAddress}`;
}
