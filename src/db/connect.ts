import type { Logger } from '../logger.js';
import { embeddedUrl, runningClusterPort, startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';

export interface DatabaseTarget {
  url: string;
  /** Set when this process started the embedded cluster and must stop it. */
  embedded?: EmbeddedDatabase;
}

/** The settings of src/config.ts that choose the database (db/ sits below the configuration and takes only these). */
export interface DatabaseSettings {
  databaseUrl?: string;
  dataDir: string;
  /** LEDGER_CLUSTER_TEMPLATE: a new embedded cluster may be copied from the build's template (src/db/cluster-template.ts). */
  clusterTemplate?: boolean;
}

/**
 * `DATABASE_URL` when given; else the embedded cluster in LEDGER_DATA_DIR — the one already
 * running there (`reuseRunning`, for the CLI next to a live service) or a new one. `launched`:
 * see startEmbeddedPostgres; called at once (`initialising` false) when there is no cluster to start.
 */
export async function connectTarget(config: DatabaseSettings, logger: Logger, reuseRunning = false, launched?: (initialising: boolean) => void): Promise<DatabaseTarget> {
  if (config.databaseUrl) {
    launched?.(false);
    return { url: config.databaseUrl };
  }
  if (reuseRunning) {
    const port = runningClusterPort(config.dataDir);
    if (port) {
      launched?.(false);
      return { url: embeddedUrl(port) };
    }
  }
  const embedded = await startEmbeddedPostgres(config.dataDir, logger, undefined, launched, { template: config.clusterTemplate });
  return { url: embedded.url, embedded };
}
