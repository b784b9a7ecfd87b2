import type { EventType } from '../outbox/event-type.js';
import type { HoldView } from '../holds/hold.types.js';
import type { CrossingView } from '../monitors/monitor.types.js';
import type { HistoryRow } from '../ledger/ledger.types.js';
import type { WalletStatus, WalletView } from '../wallets/wallet.types.js';

/** What an event is about, as read when the event is read (see event.service.ts for why that is exact). */
export type EventSubject =
  | { kind: 'transaction'; transaction: HistoryRow }
  /** `matured` on a `hold.captured` (CONTRACT §26: captured at its maturity, or not); `code` on a `hold.maturity_refused` (the refusal). */
  | { kind: 'hold'; hold: HoldView; matured?: boolean; code?: string }
  | { kind: 'wallet'; wallet: WalletView }
  | { kind: 'crossing'; crossing: CrossingView };

/** An outbox row as stored: the subject is named, not yet read. */
export interface EventRow {
  id: string;
  seq: string;
  streamPos: string;
  type: EventType;
  projectId: number;
  ownerId: string;
  subjectId: string;
  /** What the row keeps beside its subject: a wallet's new status, `matured` on a matured capture, a refused maturity's code (CONTRACT §26). */
  status: WalletStatus | string | null;
  createdAt: Date;
}

/** A numbered event: committed, with its place in its project (`seq`) and in the whole stream (`streamPos`), and its subject read. */
export interface LedgerEventView extends Omit<EventRow, 'subjectId' | 'status'> {
  subject: EventSubject;
  /** The wallets whose balances, holds or status this event changed (walletChanged subscriptions). */
  walletIds: string[];
}

export interface EventPageQuery {
  projectId: number;
  /** A `seq`: the events after it (default 0, from the first). */
  after?: number | string;
  /** 1–100, default 20. */
  limit?: number;
}

export interface EventPage {
  events: LedgerEventView[];
  after: string;
  /** The `after` of the next page: the last event's seq, or `after` itself on an empty page. */
  nextAfter: string;
  hasMore: boolean;
}
