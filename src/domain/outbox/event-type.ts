/** The outbox's closed set of event types: the seven event types of CONTRACT §16 and the balance monitors' (§20), spelled as every transport shows them. */
export const EVENT_TYPES = ['transaction.posted', 'hold.created', 'hold.captured', 'hold.voided', 'hold.expired', 'wallet.status_changed', 'points.expired', 'balance.threshold_crossed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
