import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { App } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { connectTarget, type DatabaseTarget } from './db/connect.js';
import type { Database } from './db/database.js';
import { createServiceOutput, type Logger } from './logger.js';

/**
 * The modules that serve requests (ORM, GraphQL, routes): about a second of CPU to load, so they
 * are imported while the database starts (see main) rather than before it.
 */
async function serviceModules() {
  const [database, app, schema] = await Promise.all([import('./db/database.js'), import('./app.js'), import('./graphql/subgraph-schema.js')]);
  return { ...database, ...app, ...schema };
}

/** Runs the service; `stopTracing` flushes spans at shutdown (src/observability/tracing.ts). */
export async function main(stopTracing?: () => Promise<void>): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const { logger, print, drained } = createServiceOutput(config.logLevel);
  let target: DatabaseTarget | undefined;
  let db: Database | undefined;
  let app: App | undefined;
  let startup: Promise<void> | undefined;
  let stopping = false;

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      // A signal during start-up lets the step under way finish, so that whatever it started
      // (the embedded cluster above all) is stopped below rather than left running.
      await startup?.catch(() => undefined);
      await app?.close(config.shutdownGraceMs);
      await db?.close();
      await target?.embedded?.stop();
      await stopTracing?.().catch((err: unknown) => logger.warn({ err }, 'flushing traces failed'));
      logger.info('stopped');
      await drained();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      await drained();
      process.exit(1);
    }
  };

  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const handler = () => void shutdown(signal);
    handlers.set(signal, handler);
    process.on(signal, handler);
  }

  startup = (async () => {
    // The embedded cluster starts (initdb on a fresh data dir) in its own processes while this one
    // loads the service's modules. The import begins once the cluster's process is launched: it
    // holds this thread for a few hundred milliseconds, which would hold back the awaits before
    // postgres is spawned (on an existing cluster the start is then serial, not concurrent). Both
    // settle before a failure is raised, so a cluster started here is always known to the
    // clean-up below.
    const phases = new StartPhases();
    let launched!: (initialising?: boolean) => void;
    const launch = new Promise<boolean>((resolve) => (launched = (initialising = false) => resolve(initialising)));
    const [started, loaded] = await Promise.allSettled([
      connectTarget(config, logger, false, launched)
        .finally(launched)
        .then((started) => ((target = started), phases.took('database'), started)),
      launch.then(async (initialising) => {
        const modules = await serviceModules();
        phases.took('modules');
        // On a new cluster initdb runs for most of a second after the modules are read, with this
        // thread idle: the GraphQL schema (CPU only, ≈ 0.2 s) is built then rather than after the
        // migrations, and createApp takes it. Not on other starts: there the database is up about
        // when the modules are, and building it here would only delay the ORM and the migrations.
        const graphqlSchema = initialising ? await modules.ledgerSchema() : undefined;
        if (graphqlSchema) phases.took('schema');
        return { ...modules, graphqlSchema };
      }),
    ]);
    phases.mark();
    if (started.status === 'rejected') throw started.reason;
    if (loaded.status === 'rejected') throw loaded.reason;
    if (stopping) return; // a signal during start-up: the database is up, shutdown() stops it
    const { url, embedded } = started.value;
    const { openDatabase, migrate, createApp, graphqlSchema, PREBUILT_SUBGRAPH } = loaded.value;
    db = await openDatabase(url, logger, config.dbPoolSize, { statementTimeoutMs: config.statementTimeoutMs, listen: true });
    phases.took('orm');
    if (config.autoMigrate) await migrate(db, logger);
    phases.took('migrate');
    app = await createApp({ db, logger, adminToken: config.adminToken, exposeStatementCount: config.exposeStatementCount, graphqlMaxCost: config.graphqlMaxCost, graphqlSqlPlans: config.graphqlSqlPlans, corsOrigins: config.corsOrigins, metricsToken: config.metricsToken, lotSweep: config.lotSweep, webhooks: config.webhooks, subscriptionBuffer: config.subscriptionBuffer, postingPipeline: config.postingPipeline, streamStallMs: config.streamStallMs, graphqlSchema });
    // Libraries may install their own SIGTERM/SIGINT handlers (Apollo Server does unless
    // `stopOnTerminationSignals: false`; its concurrent stop() then never settles and the
    // process hangs). The service owns its shutdown: keep only our handlers.
    for (const [signal, ours] of handlers) {
      for (const listener of process.listeners(signal)) if (listener !== ours) process.removeListener(signal, listener);
    }
    phases.took('app');
    if (stopping) return;
    if (embedded) await ensureDevKey(app, config, logger, print);
    if (stopping) return;
    await embedded?.durable; // a new cluster's files are on disk before the first request (a 201 is durable)
    phases.took('durable');
    const address = await app.listen(config.port, config.host);
    phases.took('listen');
    logger.info({ startMs: phases.ms, prebuiltSchema: PREBUILT_SUBGRAPH }, 'start-up phases');
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    print(`listening on http://${host}:${address.port}\n`);
  })();

  try {
    await startup;
  } catch (err) {
    if (stopping) return; // shutdown() cleans up and exits
    stopping = true;
    logger.fatal({ err }, 'start-up failed');
    await db?.close().catch(() => undefined);
    await target?.embedded?.stop().catch(() => undefined);
    await drained();
    process.exit(1);
  }
}

/**
 * Milliseconds per start-up phase, for the log (docs/guides/operations.md, "Start-up"). `database` (cluster start,
 * initdb on a fresh data dir) and `modules` (then `schema`, the GraphQL schema, on a new cluster
 * only) run at once, so each counts from the start of both; the later phases from the end of the
 * previous one. `process` is node's own uptime at listening.
 */
class StartPhases {
  readonly ms: Record<string, number> = {};
  readonly #origin = performance.now();
  #last = this.#origin;

  /** Records `phase` from the origin while the two concurrent ones run, else from the last mark. */
  took(phase: string): void {
    const concurrent = phase === 'database' || phase === 'modules' || phase === 'schema';
    this.ms[phase] = Math.round(performance.now() - (concurrent ? this.#origin : this.#last));
    if (!concurrent) this.mark();
    if (phase === 'listen') this.ms.process = Math.round(process.uptime() * 1000);
  }

  mark(): void {
    this.#last = performance.now();
  }
}

/** First embedded start with no key at all: one key for owner `dev` on `pro`, printed once and kept. */
async function ensureDevKey(app: App, config: Config, logger: Logger, print: (text: string) => void): Promise<void> {
  if (await app.services.apiKeys.hasAnyKey()) return;
  const issued = await app.services.apiKeys.issue('dev', 'pro');
  const file = path.join(config.dataDir, 'dev-api-key');
  writeFileSync(file, `${issued.api_key}\n`, { mode: 0o600 });
  logger.info({ file }, 'created a development API key');
  print(`dev api key (owner dev, plan pro): ${issued.api_key}\n  saved in ${file}\n`);
}
