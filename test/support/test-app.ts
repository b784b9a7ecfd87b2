import 'reflect-metadata';
import { createApp, type App } from '../../src/app.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import type { ExpirySweeperOptions } from '../../src/domain/shared/expiry-sweeper.js';
import { createLogger } from '../../src/logger.js';
import { watchKeyIssue } from './key-issue-settled.js';
import { createTestDatabase } from './database.js';
import type { WebhookOptions } from '../../src/services.js';
import type { GraphQLSchema } from 'graphql';

export const ADMIN_TOKEN = 'test-admin-token';

export interface HttpResult<T = any> {
  status: number;
  body: T;
  /** The body as received (byte-level comparisons). */
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Raw body text; sent as is (with `contentType`, default application/json). */
  raw?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
}

export interface TestApp {
  baseUrl: string;
  app: App;
  db: Database;
  databaseUrl: string;
  /** Issues an API key through the real admin endpoint. */
  issueKey(owner: string, plan?: string): Promise<string>;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResult<T>>;
  graphql<T = any>(key: string, query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<HttpResult<T>>;
  close(): Promise<void>;
}

/** The real service, in process, on a fresh database and a random port. */
export async function startTestApp(
  options: { databaseUrl?: string; graphqlMaxCost?: number; graphqlSqlPlans?: boolean; corsOrigins?: string; metricsToken?: string; lotSweep?: ExpirySweeperOptions; webhooks?: WebhookOptions; subscriptionBuffer?: number; subscriptionKeepAliveMs?: number; postingPipeline?: number; statementTimeoutMs?: number; graphqlSchema?: GraphQLSchema; streamStallMs?: number; poolSize?: number } = {},
): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  // as src/start.ts opens it: the LISTEN connection with the pools, taken by the services
  const db = await openDatabase(databaseUrl, logger, options.poolSize ?? 10, { statementTimeoutMs: options.statementTimeoutMs, listen: true });
  const app = await createApp({
    db,
    logger,
    adminToken: ADMIN_TOKEN,
    exposeStatementCount: true,
    graphqlMaxCost: options.graphqlMaxCost,
    graphqlSqlPlans: options.graphqlSqlPlans,
    corsOrigins: options.corsOrigins,
    metricsToken: options.metricsToken,
    lotSweep: options.lotSweep,
    subscriptionBuffer: options.subscriptionBuffer,
    subscriptionKeepAliveMs: options.subscriptionKeepAliveMs,
    webhooks: options.webhooks,
    postingPipeline: options.postingPipeline,
    graphqlSchema: options.graphqlSchema,
    streamStallMs: options.streamStallMs,
  });
  const address = await app.listen(0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const request = async <T>(method: string, path: string, opts: RequestOptions = {}): Promise<HttpResult<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key !== undefined) headers.api_key = opts.key;
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && opts.contentType !== null) headers['content-type'] = opts.contentType ?? 'application/json';
    const response = await fetch(baseUrl + path, { method, headers, body });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, text, headers: response.headers };
  };
  return {
    baseUrl,
    app,
    db,
    databaseUrl,
    async issueKey(owner, plan = 'pro') {
      // handed out once the issue has reached the key cache for good (support/key-issue-settled.ts)
      const issue = watchKeyIssue(app.services.apiKeys, owner);
      try {
        const res = await request<{ api_key: string }>('POST', '/admin/api-keys', {
          headers: { admin_token: ADMIN_TOKEN },
          body: { owner, plan_code: plan },
        });
        if (res.status !== 201) throw new Error(`key issuance failed: ${res.status} ${JSON.stringify(res.body)}`);
        await issue.settled;
        return res.body.api_key;
      } finally {
        issue.stop();
      }
    },
    request,
    graphql: (key, query, variables, headers) => request('POST', '/graphql', { key, body: { query, variables }, headers }),
    async close() {
      await app.close(1000);
      await db.close();
    },
  };
}
