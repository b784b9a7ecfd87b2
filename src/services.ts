import type { Database } from './db/database.js';
import { NotificationChannel } from './db/notifications.js';
import { ApiKeyService } from './domain/auth/api-key.service.js';
import { CallCounter } from './domain/auth/call-counter.js';
import { PlanService } from './domain/auth/plan.service.js';
import { loadPlans } from './domain/auth/plans.js';
import { IdempotencyService } from './domain/idempotency/idempotency.service.js';
import { LedgerRepository } from './domain/ledger/ledger.repository.js';
import { LedgerService } from './domain/ledger/ledger.service.js';
import { PostingQueue } from './domain/ledger/posting-queue.js';
import { WebhookRepository } from './domain/webhook/webhook.repository.js';
import { WebhookService } from './domain/webhook/webhook.service.js';
import { AssetService } from './domain/assets/asset.service.js';
import { ProjectService } from './domain/projects/project.service.js';
import { WalletService } from './domain/wallets/wallet.service.js';
import type { Logger } from './logger.js';
import { LotRepository } from './domain/lots/lot.repository.js';
import { LotService } from './domain/lots/lot.service.js';
import { LotSweeper, type LotSweeperOptions } from './domain/lots/lot-sweeper.js';

/** The domain services, built once per process and shared by REST, GraphQL and the CLI. */
export interface Services {
  db: Database;
  /** LISTEN/NOTIFY across instances; started by the app (src/app.ts), idle in the CLI. */
  notifications: NotificationChannel;
  apiKeys: ApiKeyService;
  calls: CallCounter;
  plans: PlanService;
  idempotency: IdempotencyService;
  ledger: LedgerService;
  webhook: WebhookService;
  projects: ProjectService;
  assets: AssetService;
  wallets: WalletService;
  /** Lots of points that expire (CONTRACT §15): reads. */
  lots: LotService;
  /** Posts due expiries in the background; started and stopped by the app; `stats()` for metrics. */
  lotSweeper: LotSweeper;
}

/** The sweeper's defaults when the caller (CLI, tests) gives none: see LEDGER_LOT_SWEEP_* in src/config.ts. */
export const DEFAULT_LOT_SWEEP: LotSweeperOptions = { intervalMs: 1_000, batchSize: 500 };

export async function createServices(db: Database, logger: Logger, options: { lotSweep?: LotSweeperOptions } = {}): Promise<Services> {
  const apiKeys = new ApiKeyService(db, await loadPlans(db));
  const ledgerRepository = new LedgerRepository(db);
  const ledger = new LedgerService(ledgerRepository, new PostingQueue(ledgerRepository));
  const wallets = new WalletService(db);
  const lotRepository = new LotRepository(db);
  return {
    ledger,
    webhook: new WebhookService(new WebhookRepository(db), ledger, logger),
    projects: new ProjectService(db),
    assets: new AssetService(db),
    wallets,
    lots: new LotService(lotRepository, wallets, ledger),
    lotSweeper: new LotSweeper(lotRepository, logger, options.lotSweep ?? DEFAULT_LOT_SWEEP),
    db,
    notifications: new NotificationChannel(db.url, logger),
    apiKeys,
    calls: new CallCounter(db, logger),
    plans: new PlanService(),
    idempotency: new IdempotencyService(db),
  };
}
