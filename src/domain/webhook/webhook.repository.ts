import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

export interface WebhookProject {
  id: number;
  exchangeRate: string;
  supportExchangeRate: boolean;
}

export interface WebhookEvent {
  id: string;
  seq: string;
  projectId: number;
  flowId: string;
  values: Record<string, unknown>;
  success: boolean;
  message: string;
  transactionId: string | null;
  receivedAt: Date;
}

export interface NewEvent {
  projectId: number;
  ownerId: string;
  flowId: string;
  values: Record<string, unknown>;
  success: boolean;
  message: string;
  transactionId: string | null;
}

export class WebhookRepository {
  constructor(private readonly db: Database) {}

  async project(ownerId: string, projectId: number): Promise<WebhookProject | null> {
    const [row] = await this.db.query<{ id: number; exchange_rate: string; support_exchange_rate: boolean }>(
      `SELECT id, exchange_rate::text, support_exchange_rate FROM projects WHERE id = $1 AND owner_id = $2`,
      [projectId, ownerId],
    );
    return row ? { id: row.id, exchangeRate: row.exchange_rate, supportExchangeRate: row.support_exchange_rate } : null;
  }

  /** The project's oldest active system wallet: the default counterparty of reward and redeem. */
  async defaultSystemWallet(projectId: number): Promise<string | null> {
    const [row] = await this.db.query<{ id: string }>(
      `SELECT w.id FROM wallets w WHERE w.project_id = $1 AND w.type = 'system' AND w.status = 'active' ORDER BY w.seq LIMIT 1`,
      [projectId],
    );
    return row?.id ?? null;
  }

  async primarySymbol(projectId: number): Promise<string | null> {
    const [row] = await this.db.query<{ symbol: string }>(
      `SELECT a.symbol FROM projects p JOIN assets a ON a.id = p.asset_id WHERE p.id = $1`,
      [projectId],
    );
    return row?.symbol ?? null;
  }

  async record(event: NewEvent): Promise<void> {
    await this.db.query(
      `INSERT INTO webhook_events (id, project_id, owner_id, flow_id, "values", success, message, transaction_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [randomUUID(), event.projectId, event.ownerId, event.flowId, JSON.stringify(event.values), event.success, event.message, event.transactionId],
    );
  }

  /**
   * Events of one project, oldest first, after a `seq` cursor; `total` counts them all. The calls
   * committed so far are numbered first (webhook_sequence_calls, in commit order), and only
   * numbered ones are read, so a cursor never passes a call that commits later. The order names
   * the column qualified (`e.seq`): a bare `ORDER BY seq` would sort by the output column `seq`,
   * which is text here, so event 10 would come before event 2.
   */
  async list(projectId: number, first: number, afterSeq: string | null): Promise<{ events: WebhookEvent[]; total: number }> {
    await this.db.query(`SELECT webhook_sequence_calls()`);
    const [rows, [count]] = await Promise.all([
      this.db.query<{ id: string; seq: string; project_id: number; flow_id: string; values: Record<string, unknown>; success: boolean; message: string; transaction_id: string | null; received_at: Date }>(
        `SELECT e.id, e.seq::text AS seq, e.project_id, e.flow_id, e."values", e.success, e.message, e.transaction_id, e.received_at
           FROM webhook_events e WHERE e.project_id = $1 AND e.seq > coalesce($2::bigint, 0) ORDER BY e.seq LIMIT $3`,
        [projectId, afterSeq, first],
      ),
      this.db.query<{ total: string }>(`SELECT count(*)::text AS total FROM webhook_events WHERE project_id = $1 AND seq IS NOT NULL`, [projectId]),
    ]);
    return {
      total: Number(count.total),
      events: rows.map((r) => ({
        id: r.id,
        seq: r.seq,
        projectId: r.project_id,
        flowId: r.flow_id,
        values: r.values,
        success: r.success,
        message: r.message,
        transactionId: r.transaction_id,
        receivedAt: r.received_at,
      })),
    };
  }
}

/** Sample calls: src/queries/webhook.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new WebhookRepository(db),
  calls: {
    project: (r) => r.project(SAMPLE.owner, SAMPLE.projectId),
    defaultSystemWallet: (r) => r.defaultSystemWallet(SAMPLE.projectId),
    primarySymbol: (r) => r.primarySymbol(SAMPLE.projectId),
    record: (r) => r.record({ projectId: SAMPLE.projectId, ownerId: SAMPLE.owner, flowId: 'reward', values: {}, success: false, message: 'no such project', transactionId: null }),
    list: (r) => r.list(SAMPLE.projectId, 20, null),
  },
});
