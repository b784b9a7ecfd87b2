import type { Principal } from '../domain/auth/api-key.service.js';
import type { Services } from '../services.js';
import type { Logger } from '../logger.js';
import type { WalletView } from '../domain/wallets/wallet.types.js';
import type { FeedStart } from '../domain/events/feed-start.js';
import { createLoaders, type Loaders } from './loaders.js';
import { DEFAULT_LIMITS, type GraphQLLimits } from './limits/limits.js';

/** Built once per GraphQL request: the caller, the shared services, and per-request DataLoaders. */
export interface GraphQLContext {
  principal: Principal;
  services: Services;
  loaders: Loaders;
  limits: GraphQLLimits;
  requestId: string;
  log: Logger;
  /**
   * How the operation was answered: `sqlPlan` when one SQL statement did (sql-plan/planner.ts).
   * An object, shared by the shallow copies Apollo makes of the context.
   */
  answered: {
    sqlPlan: boolean;
    operation?: 'query' | 'mutation' | 'subscription';
    /** The short way (planned-operations.ts) already ran the plan and it found no root: the resolvers answer. */
    planTried?: boolean;
  };
  /**
   * A subscription over WebSocket: its feed calls `tooSlow` when the subscriber falls behind (the
   * connection is closed); `wallet` is walletChanged's wallet, kept current from its status events;
   * `start` is where it starts, fixed when its message arrived.
   */
  subscriber?: { tooSlow(): void; wallet?: WalletView; start?: FeedStart };
}

export function createContext(principal: Principal, services: Services, requestId: string, log: Logger, limits: GraphQLLimits = DEFAULT_LIMITS): GraphQLContext {
  // Made on first use: a planned query and a subscription waiting for events never need them.
  let loaders: Loaders | undefined;
  return {
    principal,
    services,
    get loaders() {
      return (loaders ??= createLoaders(principal, services));
    },
    set loaders(value: Loaders) {
      loaders = value;
    },
    limits,
    requestId,
    log,
    answered: { sqlPlan: false },
  };
}
