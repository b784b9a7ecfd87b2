import path from 'node:path';
import { retryScheduleProblem } from './domain/webhook-endpoints/backoff.js';

export interface Config {
  host: string;
  port: number;
  /** Embedded PostgreSQL data and the dev key live here; unused when `databaseUrl` is set. */
  dataDir: string;
  databaseUrl?: string;
  adminToken?: string;
  autoMigrate: boolean;
  /** LEDGER_CLUSTER_TEMPLATE: a new embedded cluster is copied from the build's template when there is one (src/db/cluster-template.ts). */
  clusterTemplate: boolean;
  logLevel: string;
  dbPoolSize: number;
  /** LEDGER_STATEMENT_TIMEOUT_MS: a request's SQL statement is cut after this long (503 `timeout`); background work is not. */
  statementTimeoutMs: number;
  /** Requests still running after this many ms at shutdown are abandoned. */
  shutdownGraceMs: number;
  /** LEDGER_STREAM_STALL_MS: a streamed answer (an export) whose client takes nothing for this long is cut (CONTRACT §18: 30 s). */
  streamStallMs: number;
  /** Expose `x-sql-statements` on responses (benchmarks, tests). */
  exposeStatementCount: boolean;
  /** Cost budget of one GraphQL operation (src/graphql/limits/cost.ts). */
  graphqlMaxCost: number;
  /** Answer plannable read-only GraphQL queries with one SQL statement (src/graphql/sql-plan). */
  graphqlSqlPlans: boolean;
  /** LEDGER_CORS_ORIGINS: origins a browser app may call from (comma-separated, or `*`). */
  corsOrigins?: string;
  /** LEDGER_METRICS_TOKEN: bearer token GET /metrics requires when set. */
  metricsToken?: string;
  /** The expiry sweeper (src/domain/lots/lot-sweeper.ts): pause between sweeps and due lots per database transaction. */
  lotSweep: { intervalMs: number; batchSize: number };
  /** Events one GraphQL subscription may fall behind before its connection is closed (1013). */
  subscriptionBuffer: number;
  /** Outbound webhooks (src/domain/webhook-endpoints): private targets allowed, send timeout, retry schedule, worker size. */
  webhooks: WebhookSettings;
  /** LEDGER_POSTING_PIPELINE: posting batches in the database at once (src/domain/ledger/posting-queue.ts). */
  postingPipeline: number;
}

export interface WebhookSettings {
  /** LEDGER_WEBHOOK_ALLOW_PRIVATE: endpoints may point at loopback and private addresses (development, tests). */
  allowPrivate: boolean;
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  concurrency: number;
  pollMs: number;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`invalid configuration: ${variable} ${problem}`);
  }
}

/**
 * The defaults that the services fall back to as well when a caller (CLI, tests) leaves a setting
 * out: one place for each, so the environment and createServices cannot drift apart.
 */
export const DEFAULTS = {
  /** Measured (bench/README.md, `--variant p2:LEDGER_POSTING_PIPELINE=2`): on 2 cores one batch at a time gathers the largest batches and costs the least CPU per posting. */
  postingPipeline: 1,
  lotSweep: { intervalMs: 1_000, batchSize: 500 },
  /**
   * The hub hands over up to 500 events at once, all offered before any consumer can read, so the
   * capacity must exceed a burst. A queue holds references to events every feed shares: a full one
   * costs 8 KiB of pointers, plus the events nobody else still holds.
   */
  subscriptionBuffer: 1024,
  /** CONTRACT §18: an export whose client stops reading for 30 s is cut. */
  streamStallMs: 30_000,
  webhooks: { allowPrivate: false, timeoutMs: 10_000, retryBaseMs: 10_000, maxAttempts: 8, concurrency: 32, pollMs: 1_000 },
} as const satisfies Pick<Config, 'postingPipeline' | 'lotSweep' | 'subscriptionBuffer' | 'streamStallMs' | 'webhooks'>;

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function optional(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', 'must be a postgres:// or postgresql:// URL');
  }
  const host = optional(env, 'HOST') ?? '127.0.0.1';
  if (/\s/.test(host)) throw new ConfigError('HOST', 'must be a host name or address');
  const logLevel = optional(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const adminToken = optional(env, 'LEDGER_ADMIN_TOKEN');
  if (adminToken !== undefined && adminToken.length < 8) {
    throw new ConfigError('LEDGER_ADMIN_TOKEN', 'must be at least 8 characters');
  }
  const webhooks = webhookSettings(env);
  return {
    host,
    port: integer(env, 'PORT', 4000, 0, 65535),
    dataDir: path.resolve(optional(env, 'LEDGER_DATA_DIR') ?? '.ledger-data'),
    databaseUrl,
    adminToken,
    autoMigrate: boolean(env, 'LEDGER_AUTO_MIGRATE', true),
    clusterTemplate: boolean(env, 'LEDGER_CLUSTER_TEMPLATE', true),
    logLevel,
    dbPoolSize: integer(env, 'LEDGER_DB_POOL_SIZE', 20, 1, 500),
    statementTimeoutMs: integer(env, 'LEDGER_STATEMENT_TIMEOUT_MS', 5_000, 100, 600_000),
    // at most 25 s: SIGTERM ends the process within 30 s whatever clients do (CONTRACT §18 clarification), cleanup included
    shutdownGraceMs: integer(env, 'LEDGER_SHUTDOWN_GRACE_MS', 10000, 0, 25_000),
    // at most the contract's 30 s; shorter for tests and for an operator who wants stalled clients gone sooner
    streamStallMs: integer(env, 'LEDGER_STREAM_STALL_MS', DEFAULTS.streamStallMs, 100, DEFAULTS.streamStallMs),
    exposeStatementCount: boolean(env, 'LEDGER_EXPOSE_STATEMENT_COUNT', false),
    graphqlMaxCost: integer(env, 'LEDGER_GRAPHQL_MAX_COST', 10_000, 1, 999_999_999),
    graphqlSqlPlans: boolean(env, 'LEDGER_GRAPHQL_SQL_PLANS', true),
    corsOrigins: optional(env, 'LEDGER_CORS_ORIGINS'),
    metricsToken: optional(env, 'LEDGER_METRICS_TOKEN'),
    lotSweep: {
      // at least 1: with no sweeper, hold.expired of an untouched wallet would never be written (§16)
      intervalMs: integer(env, 'LEDGER_LOT_SWEEP_INTERVAL_MS', DEFAULTS.lotSweep.intervalMs, 1, 50_000),
      batchSize: integer(env, 'LEDGER_LOT_SWEEP_BATCH', DEFAULTS.lotSweep.batchSize, 1, 100_000),
    },
    subscriptionBuffer: integer(env, 'LEDGER_SUBSCRIPTION_BUFFER', DEFAULTS.subscriptionBuffer, 1, 1_000_000),
    webhooks,
    postingPipeline: integer(env, 'LEDGER_POSTING_PIPELINE', DEFAULTS.postingPipeline, 1, 64),
  };
}

/** The outbound webhooks' settings; a retry schedule that could break CONTRACT §16 is refused, whatever the jitter draws. */
function webhookSettings(env: Env): WebhookSettings {
  const settings: WebhookSettings = {
    allowPrivate: boolean(env, 'LEDGER_WEBHOOK_ALLOW_PRIVATE', DEFAULTS.webhooks.allowPrivate),
    timeoutMs: integer(env, 'LEDGER_WEBHOOK_TIMEOUT_MS', DEFAULTS.webhooks.timeoutMs, 100, 10_000),
    retryBaseMs: integer(env, 'LEDGER_WEBHOOK_RETRY_BASE_MS', DEFAULTS.webhooks.retryBaseMs, 1, 27_000),
    maxAttempts: integer(env, 'LEDGER_WEBHOOK_MAX_ATTEMPTS', DEFAULTS.webhooks.maxAttempts, 6, 30),
    concurrency: integer(env, 'LEDGER_WEBHOOK_CONCURRENCY', DEFAULTS.webhooks.concurrency, 1, 1_000),
    pollMs: integer(env, 'LEDGER_WEBHOOK_POLL_MS', DEFAULTS.webhooks.pollMs, 10, 60_000),
  };
  const problem = retryScheduleProblem({ baseMs: settings.retryBaseMs, maxAttempts: settings.maxAttempts });
  if (problem) {
    const variable = env.LEDGER_WEBHOOK_RETRY_BASE_MS ? 'LEDGER_WEBHOOK_RETRY_BASE_MS' : 'LEDGER_WEBHOOK_MAX_ATTEMPTS';
    throw new ConfigError(variable, `with LEDGER_WEBHOOK_RETRY_BASE_MS=${settings.retryBaseMs} and LEDGER_WEBHOOK_MAX_ATTEMPTS=${settings.maxAttempts} ${problem}`);
  }
  return settings;
}
