import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type pg from 'pg';

/**
 * The Prometheus series of CONTRACT §17, one registry per app (tests run several apps in one
 * process). Labels are bounded: HTTP `route` is the route template (or `unmatched`), never the raw
 * path; posting outcomes are `posted` or a contract error code.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly graphqlOperations: Counter<'type' | 'planned'>;
  private readonly postings: Counter<'outcome'>;
  private readonly postingBatchSize: Histogram;
  private readonly webhookDeliveries: Counter<'outcome'>;

  constructor(pool: pg.Pool | undefined, { processDefaults = true } = {}) {
    const registers = [this.registry];
    this.httpRequests = new Counter({ name: 'ledger_http_requests_total', help: 'HTTP requests answered, by method, route template and status', labelNames: ['method', 'route', 'status'], registers });
    this.httpDuration = new Histogram({
      name: 'ledger_http_request_duration_seconds',
      help: 'HTTP request duration until the answer is written, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.graphqlOperations = new Counter({ name: 'ledger_graphql_operations_total', help: 'GraphQL operations, by type and whether a SQL plan answered', labelNames: ['type', 'planned'], registers });
    this.postings = new Counter({ name: 'ledger_postings_total', help: 'Postings by outcome: posted, or the refusal error code', labelNames: ['outcome'], registers });
    this.postingBatchSize = new Histogram({
      name: 'ledger_posting_batch_size',
      help: 'Postings carried by each database commit of the posting function',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers,
    });
    this.webhookDeliveries = new Counter({ name: 'ledger_webhook_deliveries_total', help: 'Outbound webhook delivery attempts, by outcome', labelNames: ['outcome'], registers });
    new Gauge({
      name: 'ledger_db_pool_connections',
      help: 'Database pool connections by state (in_use, idle, waiting requests)',
      labelNames: ['state'],
      registers,
      collect() {
        if (!pool) return;
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    if (processDefaults) collectDefaultMetrics({ register: this.registry });
  }

  observeHttp(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  countGraphqlOperation(type: string, planned: boolean): void {
    this.graphqlOperations.inc({ type, planned: String(planned) });
  }

  /** One database commit of the posting function and the outcome of each posting it carried. */
  observePostingCommit(outcomes: readonly string[]): void {
    this.postingBatchSize.observe(outcomes.length);
    for (const outcome of outcomes) this.postings.inc({ outcome });
  }

  countWebhookDelivery(outcome: 'succeeded' | 'failed'): void {
    this.webhookDeliveries.inc({ outcome });
  }

  /** A gauge read at scrape time (background work: sweepers, delivery workers). */
  gauge(name: string, help: string, read: () => number): void {
    new Gauge({ name, help, registers: [this.registry], collect() { this.set(read()); } });
  }

  /**
   * A counter (`…_total`) over a running total a feature keeps (e.g. sweeps since start), read at
   * scrape time: a counter, not a gauge, so `rate()` and restarts work as Prometheus expects.
   */
  runningTotal(name: string, help: string, read: () => number): void {
    let counted = 0;
    new Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        const total = read();
        if (total > counted) this.inc(total - counted);
        counted = Math.max(counted, total);
      },
    });
  }

  /** A counter a feature owns (e.g. subscribers dropped): returns its increment. */
  counter(name: string, help: string): () => void {
    const counter = new Counter({ name, help, registers: [this.registry] });
    return () => counter.inc();
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
