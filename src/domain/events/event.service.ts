import type { Principal } from '../auth/api-key.service.js';
import type { HoldRepository } from '../holds/hold.repository.js';
import type { HoldView } from '../holds/hold.types.js';
import type { HistoryRepository } from '../ledger/history.repository.js';
import type { OwnershipService } from '../ownership/ownership.service.js';
import type { BalanceMonitorRepository } from '../monitors/monitor.repository.js';
import type { CrossingView } from '../monitors/monitor.types.js';
import type { HistoryRow } from '../ledger/ledger.types.js';
import { checkInput } from '../shared/validation.js';
import { SeqPageRules } from '../shared/paging.js';
import type { WalletService } from '../wallets/wallet.service.js';
import type { WalletView } from '../wallets/wallet.types.js';
import type { OutboxRepository } from '../outbox/outbox.repository.js';
import type { EventRepository } from './event.repository.js';
import type { EventPage, EventPageQuery, EventRow, EventSubject, LedgerEventView } from './event.types.js';

/**
 * Reading the outbox (CONTRACT §16). An event row names its subject; `data` is rendered from it
 * when read, which is exactly the resource as it was when the event was written: a transaction
 * never changes after it is posted except for `reversedAmount` (0 when posted, so shown 0); a
 * hold's status after `hold.created` is fixed by the event type (created: pending, nothing
 * captured) and its later states are final; a wallet's status is stored with its event; a
 * balance crossing (§20) is written once and never changes.
 */
export class EventService {
  constructor(
    private readonly events: EventRepository,
    private readonly outbox: OutboxRepository,
    private readonly ownership: OwnershipService,
    private readonly history: HistoryRepository,
    private readonly holds: HoldRepository,
    private readonly wallets: WalletService,
    private readonly monitors: BalanceMonitorRepository,
  ) {}

  /** `GET /events` and GraphQL `events`: a project's events after a seq, oldest first. */
  async list(principal: Principal, query: EventPageQuery): Promise<EventPage> {
    const { projectId, after, limit } = checkInput(SeqPageRules, query);
    await this.ownership.requireProject(principal, projectId);
    await this.numberCommitted(projectId);
    const rows = await this.events.page(projectId, String(after), limit + 1);
    const events = await this.render(rows.slice(0, limit));
    const last = events.at(-1);
    return { events, after: String(after), nextAfter: last ? last.seq : String(after), hasMore: rows.length > limit };
  }

  /** How many events the caller's project has (GraphQL `totalCount`). */
  async count(principal: Principal, projectId: number): Promise<number> {
    await this.ownership.requireProject(principal, projectId);
    return this.events.count(projectId);
  }

  /**
   * Read your writes: numbering follows the commit (EventSequencer, in the background), so a
   * change answered a moment ago may still wait for its seq. A read numbers what is committed
   * when some of its project's events wait — itself, not by waiting for the background run, which
   * goes on as long as commits keep coming. One statement when nothing waits.
   */
  private async numberCommitted(projectId: number): Promise<void> {
    await this.outbox.sequenceCommitted({ projectId });
  }

  /** Rows to events with their data, in the rows' order: one statement per kind of subject. */
  async render(rows: readonly EventRow[]): Promise<LedgerEventView[]> {
    const ids = (kind: EventSubject['kind']) => [...new Set(rows.filter((r) => subjectKind(r) === kind).map((r) => r.subjectId))];
    const walletOwners = new Map<string, string[]>();
    for (const row of rows) if (subjectKind(row) === 'wallet') walletOwners.set(row.ownerId, [...(walletOwners.get(row.ownerId) ?? []), row.subjectId]);
    const [transactions, holds, wallets, crossings] = await Promise.all([
      this.history.asPostedByIds(ids('transaction')),
      this.holds.anyByIds(ids('hold')),
      Promise.all([...walletOwners].map(([owner, walletIds]) => this.wallets.getMany(owner, walletIds))),
      this.monitors.crossingsByIds(ids('crossing')),
    ]);
    const transactionOf = new Map(transactions.map((t) => [t.id, t]));
    const holdOf = new Map(holds.map((h) => [h.id, h]));
    const walletOf = new Map(wallets.flat().flatMap((w) => (w ? [[w.id, w] as const] : [])));
    const crossingOf = new Map(crossings.map((c) => [c.id, c]));
    return rows.map((row) => {
      const subject = subjectOf(row, transactionOf, holdOf, walletOf, crossingOf);
      return { id: row.id, seq: row.seq, streamPos: row.streamPos, type: row.type, projectId: row.projectId, ownerId: row.ownerId, createdAt: row.createdAt, subject, walletIds: walletsOf(subject) };
    });
  }
}

function subjectKind(row: EventRow): EventSubject['kind'] {
  if (row.type === 'transaction.posted' || row.type === 'points.expired') return 'transaction';
  if (row.type === 'wallet.status_changed') return 'wallet';
  if (row.type === 'balance.threshold_crossed') return 'crossing';
  return 'hold';
}

function subjectOf(row: EventRow, transactions: Map<string, HistoryRow>, holds: Map<string, HoldView>, wallets: Map<string, WalletView>, crossings: Map<string, CrossingView>): EventSubject {
  const missing = () => new Error(`event ${row.id}: its ${subjectKind(row)} ${row.subjectId} is missing`);
  switch (subjectKind(row)) {
    case 'transaction': {
      const transaction = transactions.get(row.subjectId);
      if (!transaction) throw missing();
      return { kind: 'transaction', transaction: { ...transaction, reversedAmount: 0n } };
    }
    case 'hold': {
      const hold = holds.get(row.subjectId);
      if (!hold) throw missing();
      // still pending when created, and when its maturity was refused (CONTRACT §26): nothing changed it then
      const pending = row.type === 'hold.created' || row.type === 'hold.maturity_refused';
      const shown = pending ? { ...hold, status: 'pending' as const, capturedAmount: 0n, transactionId: null, updatedAt: hold.createdAt } : hold;
      if (row.type === 'hold.captured') return { kind: 'hold', hold: shown, matured: row.status === 'matured' };
      if (row.type === 'hold.maturity_refused') return { kind: 'hold', hold: shown, code: row.status ?? '' };
      return { kind: 'hold', hold: shown };
    }
    case 'wallet': {
      const wallet = wallets.get(row.subjectId);
      if (!wallet) throw missing();
      return { kind: 'wallet', wallet: { ...wallet, status: (row.status as WalletView['status'] | null) ?? wallet.status, updatedAt: row.createdAt } };
    }
    case 'crossing': {
      const crossing = crossings.get(row.subjectId);
      if (!crossing) throw missing();
      return { kind: 'crossing', crossing };
    }
  }
}

function walletsOf(subject: EventSubject): string[] {
  switch (subject.kind) {
    case 'transaction':
      return [subject.transaction.fromWalletId, subject.transaction.toWalletId].filter((id): id is string => id !== null);
    case 'hold':
      return [subject.hold.fromWalletId, subject.hold.toWalletId];
    case 'wallet':
      return [subject.wallet.id];
    case 'crossing':
      return []; // a crossing changes no wallet: the change that crossed has its own event
  }
}
