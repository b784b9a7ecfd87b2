import type { DeliveryWorker } from '../domain/webhook-endpoints/delivery-worker.js';
import type { Metrics } from './metrics.js';

/** The delivery worker's state, read at scrape time; attempts are counted by ledger_webhook_deliveries_total{outcome}. */
export function webhookDeliveryMetrics(metrics: Metrics, worker: DeliveryWorker): void {
  const stat = worker.stats.bind(worker);
  metrics.gauge('ledger_webhook_deliveries_in_flight', 'Outbound webhook attempts this instance has in flight', () => stat().inFlight);
  metrics.runningTotal('ledger_webhook_deliveries_abandoned_total', 'Events whose last attempt failed on this instance since it started (no more tries)', () => stat().abandoned);
}
