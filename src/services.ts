import type { Database } from './db/database.js';
import type { NotificationChannel } from './db/notifications.js';
import { Metrics } from './observability/metrics.js';
import { ApiKeyService } from './domain/auth/api-key.service.js';
import { CallCounter } from './domain/auth/call-counter.js';
import { PlanService } from './domain/auth/plan.service.js';
import { ApiKeyRepository } from './domain/auth/api-key.repository.js';
import { CallCountRepository } from './domain/auth/call-count.repository.js';
import { PlanRepository } from './domain/auth/plan.repository.js';
import { IdempotencyRepository } from './domain/idempotency/idempotency.repository.js';
import { IdempotencyService } from './domain/idempotency/idempotency.service.js';
import { HistoryRepository } from './domain/ledger/history.repository.js';
import { HistoryService } from './domain/ledger/history.service.js';
import { PostingRepository } from './domain/ledger/posting.repository.js';
import { PostingService } from './domain/ledger/posting.service.js';
import { OwnershipRepository } from './domain/ownership/ownership.repository.js';
import { OwnershipService } from './domain/ownership/ownership.service.js';
import { postingOutcome } from './domain/ledger/posting-refusal.js';
import { PostingQueue } from './domain/ledger/posting-queue.js';
import { WebhookRepository } from './domain/webhook/webhook.repository.js';
import { WebhookService } from './domain/webhook/webhook.service.js';
import { AssetService } from './domain/assets/asset.service.js';
import { ProjectService } from './domain/projects/project.service.js';
import { WalletService } from './domain/wallets/wallet.service.js';
import { HoldRepository } from './domain/holds/hold.repository.js';
import { HoldService } from './domain/holds/hold.service.js';
import type { Logger } from './logger.js';
import { LotRepository } from './domain/lots/lot.repository.js';
import { LotService } from './domain/lots/lot.service.js';
import { ExpirySweeper, type ExpirySweeperOptions } from './domain/shared/expiry-sweeper.js';
import { MaturitySweep } from './domain/holds/maturity-sweep.js';
import { lotSweeperMetrics } from './observability/lot-sweeper.metrics.js';
import { DEFAULTS, type WebhookSettings } from './config.js';
import { DeliveryRepository } from './domain/webhook-endpoints/delivery.repository.js';
import { DeliveryWorker, type PayloadRenderer } from './domain/webhook-endpoints/delivery-worker.js';
import { UrlGuard, type Resolver } from './domain/webhook-endpoints/url-guard.js';
import { WebhookEndpointRepository } from './domain/webhook-endpoints/webhook-endpoint.repository.js';
import { WebhookEndpointService } from './domain/webhook-endpoints/webhook-endpoint.service.js';
import { newSecret } from './domain/webhook-endpoints/webhook-signature.js';
import { WebhookSender } from './domain/webhook-endpoints/webhook-sender.js';
import { webhookDeliveryMetrics } from './observability/webhook-delivery.metrics.js';
import { EventRepository } from './domain/events/event.repository.js';
import { EventService } from './domain/events/event.service.js';
import { EventSequencer } from './domain/outbox/event-sequencer.js';
import { OutboxRepository } from './domain/outbox/outbox.repository.js';
import { EventHub } from './domain/events/event-hub.js';
import { EventFeedService } from './domain/events/event-feed.service.js';
import { webhookPayloadJson } from './json/event.json.js';
import { TransactionSearchRepository } from './domain/search/transaction-search.repository.js';
import { exportIdleInTransactionMs, TransactionSearchService } from './domain/search/transaction-search.service.js';
import { longReadCapacity, LongReadSlots } from './domain/shared/long-read-slots.js';
import { LimitRepository } from './domain/limits/limit.repository.js';
import { LimitService } from './domain/limits/limit.service.js';
import { CreditLineRepository } from './domain/credit-lines/credit-line.repository.js';
import { CreditLineService } from './domain/credit-lines/credit-line.service.js';

import { JournalRepository } from './domain/journal/journal.repository.js';
import { JournalWriter } from './domain/journal/journal-writer.js';
import { JournalVerifier } from './domain/journal/journal-verifier.js';
import { JournalService } from './domain/journal/journal.service.js';

import { AnalyticsRepository } from './domain/analytics/analytics.repository.js';
import { AnalyticsService } from './domain/analytics/analytics.service.js';

import { BalanceMonitorRepository } from './domain/monitors/monitor.repository.js';
import { BalanceMonitorService } from './domain/monitors/monitor.service.js';
import { WalletGroupRepository } from './domain/wallet-groups/wallet-group.repository.js';
import { WalletGroupService } from './domain/wallet-groups/wallet-group.service.js';

/** The domain services, built once per process and shared by REST, GraphQL and the CLI. */
export interface Services {
  db: Database;
  /** Prometheus series (CONTRACT §17), fed by the HTTP pipeline, GraphQL and the posting queue. */
  metrics: Metrics;
  /** LISTEN/NOTIFY across instances; started by the app (src/app.ts), idle in the CLI. */
  notifications: NotificationChannel;
  apiKeys: ApiKeyService;
  calls: CallCounter;
  plans: PlanService;
  idempotency: IdempotencyService;
  /** Posting verbs: transfers, seeds, batches, reversals. */
  ledger: PostingService;
  /** Balances and histories of wallets, transactions by id. */
  history: HistoryService;
  holds: HoldService;
  /** The instance's slots for exports and journal verifies (CONTRACT §18): caps per owner, a quarter of the request connections in all. */
  longReads: LongReadSlots;
  /** Finding and exporting a project's transactions (CONTRACT §21). */
  search: TransactionSearchService;
  /** Program analytics (CONTRACT §23), read from the rollups the event numbering keeps. */
  analytics: AnalyticsService;
  webhook: WebhookService;
  projects: ProjectService;
  assets: AssetService;
  wallets: WalletService;
  /** Lots of points that expire (CONTRACT §15): reads. */
  lots: LotService;
  /** Posts due expiries in the background; started and stopped by the app; `stats()` for metrics. */
  expirySweeper: ExpirySweeper;
  /** The outbox (CONTRACT §16): `GET /events`, GraphQL `events`, rendering for subscribers and deliveries. */
  events: EventService;
  /** Numbers committed events in commit order; started and stopped by the app. */
  eventSequencer: EventSequencer;
  /** A project's hash-chained journal (CONTRACT §22): pages and verify. */
  journal: JournalService;
  /** Extends the journals after each numbering run (the sequencer pokes it); flushed and stopped by the app. */
  journalWriter: JournalWriter;
  /** This instance's feed of numbered events (every instance's); started and stopped by the app. */
  eventHub: EventHub;
  /** Live events for GraphQL subscriptions on this instance, fed by the event hub (only while a feed is open); stopped by the app. */
  eventFeeds: EventFeedService;
  /** Outbound webhook endpoints (CONTRACT §16). */
  webhookEndpoints: WebhookEndpointService;
  /** Balance monitors (CONTRACT §20): their crossings are judged by the posting routines. */
  balanceMonitors: BalanceMonitorService;
  /** Delivers outbound webhooks in the background; started and stopped by the app. */
  webhookDeliveries: DeliveryWorker;
  /** Spending and earning limits (CONTRACT §19): definitions and usage; the check runs in the posting routines. */
  limits: LimitService;
  /** Wallet groups (CONTRACT §29): the tree and memberships; the roll-up sums move in the posting routines. */
  walletGroups: WalletGroupService;
  creditLines: CreditLineService;
}

/** Outbound webhooks: the settings of src/config.ts, and what tests may change besides. */
export interface WebhookOptions extends WebhookSettings {
  /** How long a claimed delivery stays this instance's (default: the send timeout + 20 s). */
  leaseMs?: number;
  /** How long an attempt may run and still count as prompt (default: PROMPT_MS of delivery-lanes.ts). */
  promptMs?: number;
  /** Host name resolution (default: the system resolver). */
  resolver?: Resolver;
}

export async function createServices(db: Database, logger: Logger, options: { lotSweep?: ExpirySweeperOptions; webhooks?: WebhookOptions; subscriptionBuffer?: number; postingPipeline?: number; streamStallMs?: number } = {}): Promise<Services> {
  const notifications = db.notifications; // opening already at the service's start (openDatabase's `listen`)
  const apiKeys = new ApiKeyService(new ApiKeyRepository(db), await new PlanRepository(db).load());
  await apiKeys.followChanges(notifications);
  const postingRepository = new PostingRepository(db);
  const historyRepository = new HistoryRepository(db);
  const ownership = new OwnershipService(new OwnershipRepository(db));
  const metrics = new Metrics(db.pool);
  const eventRepository = new EventRepository(db);
  const journalRepository = new JournalRepository(db);
  const journalWriter = new JournalWriter(journalRepository, logger);
  const outbox = new OutboxRepository(db);
  const eventSequencer = new EventSequencer(outbox, logger, journalWriter);
  await eventSequencer.follow(notifications); // another instance's numbering keeps the safety tick at 1 s
  // one queue: every posting request (transfers, seeds, batches, holds, captures, voids, reversals) takes one path
  const queue = new PostingQueue(
    postingRepository,
    (results) => {
      metrics.observePostingCommit(results.map(postingOutcome));
      eventSequencer.poke();
      expirySweeper.activity(); // lots or holds that fall due soon: the sweeper's quiet pause ends
    },
    { pipeline: options.postingPipeline ?? DEFAULTS.postingPipeline },
  );
  const ledger = new PostingService(postingRepository, historyRepository, queue);
  const history = new HistoryService(historyRepository, postingRepository, ownership);
  const wallets = new WalletService(db, () => eventSequencer.poke());
  const holdRepository = new HoldRepository(db);
  const monitorRepository = new BalanceMonitorRepository(db);
  const events = new EventService(eventRepository, outbox, ownership, historyRepository, holdRepository, wallets, monitorRepository);
  const projects = new ProjectService(db);
  const eventHub = new EventHub(eventRepository, outbox, events, notifications, logger);
  const lotRepository = new LotRepository(db);
  // the sweeper's events (expiries, hold.expired) are numbered right after each round, not at the sequencer's next tick
  // a round releases the holds that fell due (holds/), then posts the expiry of the lots (lots/), then
  // captures the maturing holds whose time came (holds/maturity-sweep.ts, CONTRACT §26)
  const dueWork = [{ sweep: (n: number) => holdRepository.sweepDue(n) }, lotRepository, new MaturitySweep(holdRepository, () => eventSequencer.poke())];
  const expirySweeper = new ExpirySweeper(dueWork, logger, { ...(options.lotSweep ?? DEFAULTS.lotSweep), onCommit: () => eventSequencer.poke() });
  lotSweeperMetrics(metrics, expirySweeper);
  const webhooks: WebhookOptions = options.webhooks ?? DEFAULTS.webhooks;
  const guard = new UrlGuard(webhooks.allowPrivate, webhooks.resolver);
  const webhookDeliveries = new DeliveryWorker(
    new DeliveryRepository(db),
    new WebhookSender(guard, webhooks.timeoutMs),
    webhookPayloads(eventRepository, events),
    notifications,
    logger,
    {
      baseMs: webhooks.retryBaseMs,
      maxAttempts: webhooks.maxAttempts,
      concurrency: webhooks.concurrency,
      pollMs: webhooks.pollMs,
      leaseMs: webhooks.leaseMs ?? webhooks.timeoutMs + 20_000,
      promptMs: webhooks.promptMs,
      fanOutBatch: 500,
    },
    (outcome) => metrics.countWebhookDelivery(outcome),
  );
  webhookDeliveryMetrics(metrics, webhookDeliveries);
  const longReads = new LongReadSlots(longReadCapacity(db.requestConnections));
  return {
    ledger,
    history,
    holds: new HoldService(holdRepository, postingRepository, ownership, queue),
    longReads,
    search: new TransactionSearchService(new TransactionSearchRepository(db), ownership, longReads, exportIdleInTransactionMs(options.streamStallMs ?? DEFAULTS.streamStallMs)),
    analytics: new AnalyticsService(new AnalyticsRepository(db)),
    webhook: new WebhookService(new WebhookRepository(db), ledger),
    projects,
    assets: new AssetService(db),
    wallets,
    lots: new LotService(lotRepository, wallets, history),
    expirySweeper,
    events,
    eventSequencer,
    journal: new JournalService(journalRepository, new JournalVerifier(journalRepository), ownership, longReads),
    journalWriter,
    eventHub,
    eventFeeds: new EventFeedService(eventHub, wallets, projects, options.subscriptionBuffer ?? DEFAULTS.subscriptionBuffer),
    webhookEndpoints: new WebhookEndpointService(new WebhookEndpointRepository(db), ownership, guard, newSecret),
    webhookDeliveries,
    limits: new LimitService(new LimitRepository(db), postingRepository, ownership, wallets),
    creditLines: new CreditLineService(new CreditLineRepository(db), postingRepository),

    balanceMonitors: new BalanceMonitorService(monitorRepository),
    walletGroups: new WalletGroupService(new WalletGroupRepository(db)),
    db,
    metrics,
    notifications,
    apiKeys,
    calls: new CallCounter(new CallCountRepository(db), logger),
    plans: new PlanService(),
    idempotency: new IdempotencyService(new IdempotencyRepository(db)),
  };
}

/** The outbound webhook bodies of events (CONTRACT §16): `data` is the resource as GET /events shows it. */
function webhookPayloads(repository: EventRepository, events: EventService): PayloadRenderer {
  return async (eventIds) => {
    const views = await events.render(await repository.byIds(eventIds));
    return new Map(views.map((event) => [event.id, webhookPayloadJson(event)]));
  };
}
