import type { ExpirySweeper } from '../domain/shared/expiry-sweeper.js';
import type { Metrics } from './metrics.js';

/** The expiry sweeper's settings and last sweep as gauges and counters (CONTRACT §15: interval, batch size and lag visible), read at scrape time. */
export function lotSweeperMetrics(metrics: Metrics, sweeper: ExpirySweeper): void {
  const stat = sweeper.stats.bind(sweeper);
  metrics.gauge('ledger_lot_sweep_interval_seconds', 'Pause between two sweeps of the lot expiry sweeper (0: off)', () => stat().intervalMs / 1000);
  metrics.gauge('ledger_lot_sweep_batch_size', 'Due lots one sweeper database transaction takes', () => stat().batchSize);
  metrics.gauge('ledger_lot_sweep_lag_seconds', "Largest delay from a lot's expires_at to the posting of its expiry, in the last sweep of this instance that expired something", () => (stat().lastLagMs ?? 0) / 1000);
  metrics.gauge('ledger_lot_sweep_duration_seconds', 'Duration of the last sweep of this instance', () => (stat().lastSweepMs ?? 0) / 1000);
  metrics.runningTotal('ledger_lot_sweep_expired_total', 'Expiry transactions posted by the sweeper of this instance since it started', () => stat().expiredTotal);
  metrics.runningTotal('ledger_lot_sweeps_total', 'Sweeps completed by this instance since it started', () => stat().sweeps);
}
