/** The outbox's closed set of event types: the seven event types of CONTRACT §16, the balance monitors' (§20) and the refused maturity of a pending credit (§26), spelled as every transport shows them. */
export const EVENT_TYPES = ['transaction.posted', 'hold.created', 'hold.captured', 'hold.voided', 'hold.expired', 'wallet.status_changed', 'points.expired', 'balance.threshold_crossed', 'hold.maturity_refused'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
