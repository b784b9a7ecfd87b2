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
import { HoldRepository } from './domain/holds/hold.repository.js';
import { HoldService } from './domain/holds/hold.service.js';
import type { Logger } from './logger.js';

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
  holds: HoldService;
  webhook: WebhookService;
  projects: ProjectService;
  assets: AssetService;
  wallets: WalletService;
}

export async function createServices(db: Database, logger: Logger): Promise<Services> {
  const apiKeys = new ApiKeyService(db, await loadPlans(db));
  const ledgerRepository = new LedgerRepository(db);
  // one queue: every posting request (transfers, seeds, batches, holds, captures, voids, reversals) takes one path
  const queue = new PostingQueue(ledgerRepository);
  const ledger = new LedgerService(ledgerRepository, queue);
  return {
    ledger,
    holds: new HoldService(new HoldRepository(db), ledgerRepository, queue),
    webhook: new WebhookService(new WebhookRepository(db), ledger, logger),
    projects: new ProjectService(db),
    assets: new AssetService(db),
    wallets: new WalletService(db),
    db,
    notifications: new NotificationChannel(db.url, logger),
    apiKeys,
    calls: new CallCounter(db, logger),
    plans: new PlanService(),
    idempotency: new IdempotencyService(db),
  };
}
