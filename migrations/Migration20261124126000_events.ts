import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox (CONTRACT §16).
 *
 * `events`: one row per committed change, written by the posting routines in the same database
 * transaction as the change (`ledger_emit`). A row names its subject (a transaction, a hold or a
 * wallet) and, for `wallet.status_changed`, the status it changed to; `data` is rendered from the
 * subject when read (a transaction is immutable; a hold's later states are terminal; the event
 * type fixes the hold's status and the wallet's), so the posting writes one small row and the REST
 * shape has one home (the presenters).
 *
 * `seq` (per project) and `stream_pos` (global) are NULL when the row is written and assigned
 * after the commit by `ledger_sequence_events`, one caller at a time (an advisory lock), to the
 * rows committed since its last run, in `pos` order. Numbers are therefore handed out in commit
 * order: an event can never appear below a `seq` a reader has already passed. `stream_pos` is the
 * one cursor every instance follows to fan events out (subscriptions, webhook deliveries).
 */
export class Migration20261124126000_events extends Migration {
  override up(): void {
    this.addSql(`
      CREATE TABLE events (
        pos bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
        -- no foreign key: the posting that writes the row has the project's wallets locked, and
        -- projects are never deleted; a key check per event would be a lookup per posting
        project_id integer NOT NULL,
        type text NOT NULL CHECK (type IN ('transaction.posted', 'hold.created', 'hold.captured', 'hold.voided', 'hold.expired', 'wallet.status_changed', 'points.expired')),
        subject_id uuid NOT NULL,
        status text,
        created_at timestamptz(3) NOT NULL,
        seq bigint,
        stream_pos bigint,
        CHECK ((seq IS NULL) = (stream_pos IS NULL))
      )`);
    this.addSql(`CREATE UNIQUE INDEX events_project_seq_idx ON events (project_id, seq) WHERE seq IS NOT NULL`);
    this.addSql(`CREATE UNIQUE INDEX events_stream_idx ON events (stream_pos) WHERE stream_pos IS NOT NULL`);
    this.addSql(`CREATE INDEX events_unsequenced_idx ON events (pos) WHERE seq IS NULL`);
    // the sweeper releases holds past their expiry (hold.expired within 60 s)
    this.addSql(`CREATE INDEX holds_due_idx ON holds (expires_at) WHERE status = 'pending'`);
    this.addSql(`CREATE TABLE event_counters (project_id integer PRIMARY KEY REFERENCES projects (id), last_seq bigint NOT NULL)`);
  }
}
