import { z } from 'zod';
import type { Principal } from '../auth/api-key.service.js';
import { LedgerError, notFound, validationError } from '../errors.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import { CurrencyRule, WalletRefRule } from '../ledger/ledger.rules.js';
import type { HistoryRow } from '../ledger/ledger.types.js';
import type { Logger } from '../../logger.js';
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
 */
export class WebhookService {
  /**
   * `log` hears of an event that could not be recorded after its posting committed (see `handle`);
   * without one, that failure is swallowed silently — src/services.ts should pass its logger.
   */
  constructor(
    private readonly repository: WebhookRepository,
    private readonly ledger: LedgerService,
    private readonly log?: Pick<Logger, 'error'>,
  ) {}

  async handle(principal: Principal, input: WebhookInput): Promise<WebhookOutcome> {
    if (!FlowIdRule.safeParse(input.flowId).success) throw validationError('flowId', 'must be 1 to 200 characters');
    const project = await this.repository.project(principal.ownerId, input.projectId);
    if (!project) throw notFound('project', input.projectId);
    const event = { projectId: project.id, ownerId: principal.ownerId, flowId: input.flowId, values: input.values };
    let posted: HistoryRow | null;
    try {
      posted = await this.run(principal, project, input);
    } catch (error) {
      const refusal = toLedgerError(error);
      if (refusal.code !== 'internal_error') {
        await this.repository.record({ ...event, success: false, message: `${refusal.code}: ${refusal.message}`, transactionId: null });
      }
      throw error;
    }
    const message = posted
      ? `${input.flowId}: ${minorToDecimalString(posted.amount, posted.fractions)} ${posted.symbol} from ${posted.fromAddress} to ${posted.toAddress}`
      : `${input.flowId}: recorded`;
    try {
      await this.repository.record({ ...event, success: true, message, transactionId: posted?.id ?? null });
    } catch (error) {
      // A flow that posts nothing (recorded only) has had no effect: its error stands.
      if (!posted) throw error;
      // The posting is durable: any answer but 2xx would tell the caller that nothing was posted
      // (CONTRACT §4), and a retry without an idempotency key would post a second time. So the lost
      // event is logged, never answered as an error; the transaction itself remains the record.
      this.log?.error({ err: error, projectId: project.id, flowId: input.flowId, transactionId: posted?.id ?? null }, 'webhook event not recorded after its posting');
    }
    return { success: true, message };
  }

  async events(principal: Principal, projectId: number, first: number, afterSeq: string | null): Promise<{ events: WebhookEvent[]; total: number }> {
    if (!(await this.repository.project(principal.ownerId, projectId))) throw notFound('project', projectId);
    return this.repository.list(projectId, first, afterSeq);
  }

  private async run(principal: Principal, project: WebhookProject, input: WebhookInput): Promise<HistoryRow | null> {
    if (input.flowId === 'reward') {
      const values = parseInput(RewardValues, input.values, 'values', { nested: true });
      if (values.fiatAmount !== undefined && !project.supportExchangeRate) {
        throw validationError('values.fiatAmount', 'the project does not support an exchange rate');
      }
      const from = values.from ?? (await this.defaultSystemWallet(project.id));
      const currency = values.currency ?? (await this.primarySymbol(project.id));
      const fiat = values.fiatAmount;
      const amount = fiat === undefined ? values.amount! : (asset: { fractions: number }) => convertFiat(fiat, project.exchangeRate, asset.fractions);
      return this.ledger.transfer(principal, { projectId: project.id, currency, from, to: values.to, amount: values.amount ?? 0 }, { fromType: 'system', toType: 'customer', amount });
    }
    if (input.flowId === 'redeem') {
      const values = parseInput(RedeemValues, input.values, 'values', { nested: true });
      const to = values.to ?? (await this.defaultSystemWallet(project.id));
      const currency = values.currency ?? (await this.primarySymbol(project.id));
      return this.ledger.transfer(principal, { projectId: project.id, currency, from: values.from, to, amount: values.amount }, { fromType: 'customer', toType: 'system' });
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
