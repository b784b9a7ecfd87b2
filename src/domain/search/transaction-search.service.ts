import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Principal } from '../auth/api-key.service.js';
import { notFound, validationError } from '../errors.js';
import { EXPIRED_ADDRESS, MINT_ADDRESS } from '../ledger/ledger.types.js';
import { CurrencyRule, ReferenceRule, WalletRefRule } from '../ledger/ledger.rules.js';
import { isUuid, ProjectIdRule, UuidRule } from '../shared/ids.js';
import { checkField } from '../shared/validation.js';
import {
  amountBound,
  decodeAfter,
  encodeAfter,
  likePrefix,
  MAX_METADATA_PAIRS,
  metadataAlternatives,
  MetadataKeyRule,
  MetadataValueRule,
  ReferencePrefixRule,
  SearchLimitRule,
} from './transaction-search.rules.js';
import type { OwnershipService } from '../ownership/ownership.service.js';
import { withinOneWait, type LongReadSlots } from '../shared/long-read-slots.js';
import type { TransactionSearchRepository } from './transaction-search.repository.js';
import type { ExportRange, ResolvedFilter, SearchPage, SearchQuery, Side } from './transaction-search.types.js';

/**
 * The idle_in_transaction_session_timeout of an export's transaction, for a stream cut after
 * `stallMs` without progress (LEDGER_STREAM_STALL_MS): twice that, so the service's own cut comes
 * first and PostgreSQL's is the backstop for a connection the service somehow kept.
 */
export const exportIdleInTransactionMs = (stallMs: number): number => 2 * stallMs;

/**
 * Finding and exporting a project's transactions (CONTRACT §21). Every filter is checked here,
 * whichever transport asked (REST query strings, the GraphQL `TransactionFilter`), then resolved
 * against the caller's project: another owner's project, or a wallet the project lacks, is
 * `not_found`.
 */
export class TransactionSearchService {
  constructor(
    private readonly repository: TransactionSearchRepository,
    private readonly ownership: OwnershipService,
    private readonly slots: LongReadSlots,
    private readonly exportIdleMs: number,
  ) {}

  /** One page, newest first (date, then commit order), after the `after` position. */
  async search(principal: Principal, query: SearchQuery): Promise<SearchPage> {
    const limit = checkField('limit', SearchLimitRule, query.limit);
    const before = query.after === undefined || query.after === null ? null : decodeAfter(query.after);
    const filter = await this.resolve(principal, query, before);
    const rows = await this.repository.search(filter, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { rows: page, hasMore: rows.length > limit, nextAfter: last ? encodeAfter(last.date, last.seq) : (query.after ?? null) };
  }

  /**
   * Every transaction of the project in the range, oldest first, from one snapshot taken now
   * (before the caller writes anything): a stream of rows that the consumer pulls. It holds one
   * of the instance's long-read slots (CONTRACT §18: 429 `rate_limited` past 2 per owner, 503
   * `timeout` when none came free within 5 s) until its connection is given back — at its end,
   * or when the stream is destroyed (the caller destroys it on every other path). `signal`: the
   * client went away; a wait for a slot or a connection then ends with nothing held.
   */
  async export(principal: Principal, range: ExportRange, signal?: AbortSignal): Promise<Readable> {
    const projectId = checkField('projectId', ProjectIdRule, range.projectId);
    checkRange(range.since ?? null, range.until ?? null);
    // tenancy (404) before the slot, as verify does: a request for no project of the caller's takes no
    // slot and is never 429 (the fuzz run's concurrent lanes saw 429 for unknown projects)
    await this.ownership.requireProject(principal, projectId);
    const asked = Date.now();
    const release = await this.slots.enter(principal.ownerId, 'export', signal);
    let rows: Readable | null;
    try {
      rows = await withinOneWait(asked, () =>
        this.repository.openExport(principal.ownerId, projectId, range.since ?? null, range.until ?? null, { idleInTransactionMs: this.exportIdleMs, signal, onReleased: release }),
      );
    } catch (error) {
      release();
      throw error;
    }
    if (!rows) throw notFound('project', projectId);
    return rows;
  }

  private async resolve(principal: Principal, query: SearchQuery, before: ResolvedFilter['before']): Promise<ResolvedFilter> {
    const projectId = checkField('projectId', ProjectIdRule, query.projectId);
    const check = <T>(field: string, rule: z.ZodType<T>, value: unknown): T | null => (value === undefined ? null : checkField(field, rule, value));
    const walletRef = check('walletId', WalletRefRule, query.walletId);
    const fromRef = check('from', WalletRefRule, query.from);
    const toRef = check('to', WalletRefRule, query.to);
    const symbol = check('currency', CurrencyRule, query.currency);
    const reference = check('reference', ReferenceRule, query.reference);
    const prefix = check('referencePrefix', ReferencePrefixRule, query.referencePrefix);
    const reverses = check('reverses', UuidRule, query.reverses);
    const pairs = query.metadata ?? [];
    if (pairs.length > MAX_METADATA_PAIRS) throw validationError('metadata', `at most ${MAX_METADATA_PAIRS} pairs`);
    pairs.forEach((pair, i) => {
      checkField(`metadata.${i}.key`, MetadataKeyRule, pair.key);
      checkField(`metadata.${i}.value`, MetadataValueRule, pair.value);
    });
    checkRange(query.since ?? null, query.until ?? null);
    await this.ownership.requireProject(principal, projectId);

    const asset = symbol === null ? null : await this.repository.assetOf(projectId, symbol);
    if (symbol !== null && !asset) throw notFound('currency', symbol);
    const fractions = asset?.fractions ?? null;
    const minAmount = query.minAmount === undefined ? null : amountBound('minAmount', query.minAmount, fractions);
    const maxAmount = query.maxAmount === undefined ? null : amountBound('maxAmount', query.maxAmount, fractions);
    return {
      projectId,
      walletId: walletRef === null ? null : await this.wallet(projectId, walletRef),
      from: fromRef === null ? null : await this.side(projectId, fromRef, [MINT_ADDRESS]),
      to: toRef === null ? null : await this.side(projectId, toRef, [EXPIRED_ADDRESS, MINT_ADDRESS]),
      assetId: asset?.id ?? null,
      minAmount,
      maxAmount,
      since: query.since ?? null,
      until: query.until ?? null,
      reference,
      referencePrefix: prefix === null ? null : likePrefix(prefix),
      reverses,
      metadata: pairs.map((pair) => ({ ...pair, alternatives: metadataAlternatives(pair) })),
      before,
    };
  }

  /** A side: a reserved address it may carry (`from` @mint; `to` @expired or @mint), else a wallet of the project. */
  private async side(projectId: number, ref: string, reserved: string[]): Promise<Side> {
    if (reserved.includes(ref)) return { reserved: ref as '@mint' | '@expired' };
    return { wallet: await this.wallet(projectId, ref) };
  }

  private async wallet(projectId: number, ref: string): Promise<string> {
    const id = await this.repository.walletOf(projectId, ref, isUuid(ref) ? ref : null);
    if (!id) throw notFound('wallet', ref);
    return id;
  }
}

function checkRange(since: Date | null, until: Date | null): void {
  for (const [field, value] of [['since', since], ['until', until]] as const) {
    if (value !== null && Number.isNaN(value.getTime())) throw validationError(field, 'must be an ISO 8601 timestamp with an offset');
  }
}
