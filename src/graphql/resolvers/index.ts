import type { NonEmptyArray } from 'type-graphql';
import { AssetResolver } from './asset.resolver.js';
import { BalanceResolver } from './balance.resolver.js';
import { PlanResolver } from './plan.resolver.js';
import { ProjectResolver } from './project.resolver.js';
import { ProjectTransactionsResolver } from './project-transactions.resolver.js';
import { ProjectAnalyticsResolver } from './project-analytics.resolver.js';
import { TransactionResolver } from './transaction.resolver.js';
import { WalletResolver } from './wallet.resolver.js';
import { WebhookResolver } from './webhook.resolver.js';
import { HoldResolver } from './hold.resolver.js';
import { SubscriptionResolver } from './subscription.resolver.js';
import { EventResolver } from './event.resolver.js';
import { BalanceMonitorResolver } from './balance-monitor.resolver.js';
import { LimitResolver, WalletLimitsResolver } from './spending-limit.resolver.js';
import { CreditLineResolver } from './credit-line.resolver.js';

export const resolvers: NonEmptyArray<Function> = [PlanResolver, ProjectResolver, ProjectTransactionsResolver, ProjectAnalyticsResolver, AssetResolver, WalletResolver, TransactionResolver, WebhookResolver, HoldResolver, BalanceResolver, EventResolver, BalanceMonitorResolver, SubscriptionResolver, LimitResolver, WalletLimitsResolver, CreditLineResolver];
