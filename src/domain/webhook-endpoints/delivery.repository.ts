import type { Database } from '../../db/database.js';
import { LaneLoad, type Lane } from './delivery-lanes.js';
import { SAMPLE, sqlSamples } from '../../db/sql-samples.js';

/**
 * Every statement of the delivery worker starts with this comment: it runs in the background, at
 * any moment of a request, and tests that count a request's statements leave it out.
 */
export const WORKER_SQL_TAG = '/* webhook-worker */';

/** A job this instance holds the lease of: the next attempt of one event to one endpoint. */
export interface ClaimedJob {
  jobId: string;
  endpointId: string;
  projectId: number;
  ownerId: string;
  /** The endpoint's lane when the job was claimed (`failing`: its last attempt failed or was not prompt). */
  lane: Lane;
  eventId: string;
  /** This attempt's number, from 1 per endpoint and event. */
  attempt: number;
  url: string;
  secret: string;
  leaseToken: string;
}

/** One attempt made, to record: `retryInMs` when the next one is due, null when there is none. */
export interface RecordedAttempt {
  job: ClaimedJob;
  /** When the attempt was made (its request began): the delivery's `created_at` (CONTRACT §16). */
  startedAt: Date;
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  error: string | null;
  retryInMs: number | null;
}

/** What one claim may take in one lane on this instance (see `claim`). */
export interface LaneLimits {
  /** The lane's free slots. */
  slots: number;
  /** Attempts of one owner in flight at once in this lane. */
  perOwner: number;
  /** This instance's attempts in flight in this lane, by owner and by project. */
  load: LaneLoad;
}

/** What one claim may take (see `claim`). */
export interface ClaimLimits {
  /** Attempts to one endpoint in flight at once, on all instances together. */
  perEndpoint: number;
  lanes: Record<Lane, LaneLimits>;
}

export const attemptKey = (endpointId: string, eventId: string, attempt: number): string => `${endpointId}/${eventId}/${attempt}`;

export interface FanOutResult {
  /** Events wait but another instance (or an endpoint's creation) holds the fan-out. */
  busy: boolean;
  /** Events read past the fan-out position (a full batch: there may be more). */
  scanned: number;
  queued: number;
}

/** The delivery worker's SQL (CONTRACT §16): fan-out of events into jobs, claims under a lease, one record per attempt. */
export class DeliveryRepository {
  constructor(private readonly db: Database) {}

  /**
   * Turns up to `batch` events past the fan-out position into one job per matching endpoint
   * (same project, created before the event was numbered, wanting its type) and advances the
   * position, in one statement. Numbered events become visible in stream order (they are
   * numbered one run at a time, each run committing before the next), so nothing appears
   * behind the position once it has passed.
   */
  async fanOut(batch: number): Promise<FanOutResult> {
    const [row] = await this.db.query<{ ran: boolean; behind: boolean; scanned: number; queued: number }>(
      `${WORKER_SQL_TAG}
       WITH top AS (
         SELECT coalesce((SELECT stream_pos FROM events WHERE stream_pos IS NOT NULL ORDER BY stream_pos DESC LIMIT 1), 0) AS pos
       ),
       -- locked only when there is something to do: an idle look writes nothing (no lock, no commit to flush)
       position AS (
         SELECT stream_pos FROM webhook_fanout WHERE stream_pos < (SELECT pos FROM top) FOR UPDATE SKIP LOCKED
       ),
       batch AS (
         -- a scalar bound, so the scan of events_stream_idx starts at the position (and reads nothing without the lock)
         SELECT e.id, e.project_id, e.type, e.stream_pos
           FROM events e
          WHERE e.stream_pos > (SELECT stream_pos FROM position)
          ORDER BY e.stream_pos
          LIMIT $1
       ),
       queued AS (
         INSERT INTO webhook_jobs (endpoint_id, project_id, event_id, stream_pos)
         SELECT w.id, b.project_id, b.id, b.stream_pos
           FROM batch b
           JOIN webhook_endpoints w ON w.project_id = b.project_id AND w.start_pos < b.stream_pos AND (w.types IS NULL OR b.type = ANY (w.types))
          ORDER BY b.stream_pos, w.seq
         ON CONFLICT (endpoint_id, event_id) DO NOTHING
         RETURNING 1
       ),
       advanced AS (
         UPDATE webhook_fanout SET stream_pos = (SELECT max(stream_pos) FROM batch) WHERE EXISTS (SELECT 1 FROM batch) RETURNING 1
       )
       SELECT EXISTS (SELECT 1 FROM position) AS ran,
              (SELECT pos FROM top) > (SELECT stream_pos FROM webhook_fanout) AS behind,
              (SELECT count(*)::int FROM batch) AS scanned,
              (SELECT count(*)::int FROM queued) AS queued,
              (SELECT count(*)::int FROM advanced) AS advanced`,
      [batch],
    );
    return { busy: !row.ran && row.behind, scanned: row.scanned, queued: row.queued };
  }

  /**
   * When the earliest job falls due (a lease running out counts), and whether that is now; null
   * when there is no job. One probe of webhook_jobs_due_idx, so a pass with nothing due (every
   * pass woken by a posting's event on a ledger without endpoints) costs one statement instead
   * of the claim's transaction.
   */
  async earliestDue(): Promise<{ at: Date; due: boolean } | null> {
    const [row] = await this.db.query<{ at: Date | null; due: boolean | null }>(
      `${WORKER_SQL_TAG} SELECT min(next_attempt_at) AS at, min(next_attempt_at) <= now() AS due FROM webhook_jobs`,
    );
    return row?.at ? { at: row.at, due: row.due === true } : null;
  }

  /**
   * Leases due jobs to `leaseToken`, fairly (CONTRACT §18): their next_attempt_at moves `leaseMs`
   * ahead, so no other instance takes them meanwhile, and they are due again if this one dies
   * holding them. An attempt in flight is a job under a lease that has not run out.
   *
   * - An endpoint never has more than `perEndpoint` attempts in flight, on all instances together:
   *   claims take turns cluster-wide (a transaction-scoped advisory lock), and the claim counts the
   *   leases in a statement that starts once the lock is held, so it sees every claim before it.
   * - Each job goes to its endpoint's lane (`failing` when webhook_endpoints.failing_since is set,
   *   else `prompt`), and each lane is shared on its own: owners first, then an owner's projects,
   *   then a project's endpoints, round-robin. A project's candidates are numbered after what it
   *   already has in flight here in that lane, over its endpoints in turn; an owner's are numbered
   *   after what it has in flight here in that lane, its projects' numbers interleaved; the claim
   *   takes the lowest owner numbers first (the earliest due among equals), no owner past its
   *   `perOwner` share of the lane and no lane past its free `slots`. So owners whose endpoints
   *   hang or fail leave slots free for another owner's first attempt, and an owner with many
   *   projects gets no more than one with a single project.
   *
   * Answers the jobs claimed and when the next job falls due (a retry, or a lease running out);
   * jobs due now but held back by a cap are taken when a slot frees or at the next poll.
   */
  async claim(limits: ClaimLimits, leaseToken: string, leaseMs: number): Promise<{ jobs: ClaimedJob[]; nextDueAt: Date | null }> {
    const { prompt, failing } = limits.lanes;
    const projectLoad = [...loadOf(prompt.load.byProject, false), ...loadOf(failing.load.byProject, true)];
    const ownerLoad = [...loadOf(prompt.load.byOwner, false), ...loadOf(failing.load.byOwner, true)];
    return this.db.transaction(async (client) => {
      await client.query(`${WORKER_SQL_TAG} SELECT pg_advisory_xact_lock(hashtext('webhook_claims'))`);
      const { rows } = await client.query<RawClaim>(
        `${WORKER_SQL_TAG}
         WITH in_flight AS (
           SELECT endpoint_id, count(*)::int AS n FROM webhook_jobs
            WHERE lease_token IS NOT NULL AND next_attempt_at > now()
            GROUP BY endpoint_id
         ),
         candidate AS (
           -- each endpoint's earliest due jobs, as many as it has attempts free, in a lane with free slots
           SELECT c.id, c.next_attempt_at, c.endpoint_turn, w.project_id, p.owner_id, w.failing_since IS NOT NULL AS failing
             FROM webhook_endpoints w
             JOIN projects p ON p.id = w.project_id
             LEFT JOIN in_flight f ON f.endpoint_id = w.id
            CROSS JOIN LATERAL (
              SELECT d.id, d.next_attempt_at, row_number() OVER (ORDER BY d.next_attempt_at, d.id) AS endpoint_turn
                FROM webhook_jobs d
               WHERE d.endpoint_id = w.id AND d.next_attempt_at <= now()
               ORDER BY d.next_attempt_at, d.id
               LIMIT greatest($3::int - coalesce(f.n, 0), 0)
            ) c
            WHERE CASE WHEN w.failing_since IS NULL THEN $4::int ELSE $5::int END > 0
         ),
         project_turn AS (
           SELECT c.id, c.next_attempt_at, c.owner_id, c.failing,
                  coalesce(mine.n, 0) + row_number() OVER (PARTITION BY c.failing, c.project_id ORDER BY c.endpoint_turn, c.next_attempt_at, c.id) AS turn
             FROM candidate c
             LEFT JOIN unnest($8::boolean[], $9::int[], $10::int[]) AS mine (failing, project_id, n) ON mine.failing = c.failing AND mine.project_id = c.project_id
         ),
         owner_turn AS (
           SELECT t.id, t.next_attempt_at, t.failing,
                  coalesce(mine.n, 0) + row_number() OVER (PARTITION BY t.failing, t.owner_id ORDER BY t.turn, t.next_attempt_at, t.id) AS turn
             FROM project_turn t
             LEFT JOIN unnest($11::boolean[], $12::text[], $13::int[]) AS mine (failing, owner_id, n) ON mine.failing = t.failing AND mine.owner_id = t.owner_id
         ),
         lane_turn AS (
           SELECT o.id, o.failing, row_number() OVER (PARTITION BY o.failing ORDER BY o.turn, o.next_attempt_at, o.id) AS turn
             FROM owner_turn o
            WHERE o.turn <= CASE WHEN o.failing THEN $7::int ELSE $6::int END
         ),
         due AS (
           SELECT j.id, l.failing FROM webhook_jobs j
             JOIN lane_turn l ON l.id = j.id
            WHERE l.turn <= CASE WHEN l.failing THEN $5::int ELSE $4::int END
              FOR UPDATE OF j SKIP LOCKED
         )
         UPDATE webhook_jobs j
            SET lease_token = $1, next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
           FROM due, webhook_endpoints w, projects p
          WHERE j.id = due.id AND w.id = j.endpoint_id AND p.id = j.project_id
         RETURNING j.id::text AS job_id, j.endpoint_id, j.project_id, p.owner_id, due.failing, j.event_id, j.attempts + 1 AS attempt, w.url, w.secret`,
        [
          leaseToken,
          leaseMs,
          limits.perEndpoint,
          Math.max(0, prompt.slots),
          Math.max(0, failing.slots),
          prompt.perOwner,
          failing.perOwner,
          projectLoad.map((l) => l.failing),
          projectLoad.map((l) => l.key),
          projectLoad.map((l) => l.n),
          ownerLoad.map((l) => l.failing),
          ownerLoad.map((l) => l.key),
          ownerLoad.map((l) => l.n),
        ],
      );
      // the same transaction, so the same now(): a job that fell due since the claim's look is not skipped
      const { rows: next } = await client.query<{ at: Date | null }>(`${WORKER_SQL_TAG} SELECT min(next_attempt_at) AS at FROM webhook_jobs WHERE next_attempt_at > now()`);
      const jobs = rows.map((r) => ({
        jobId: r.job_id,
        endpointId: r.endpoint_id,
        projectId: r.project_id,
        ownerId: r.owner_id,
        lane: r.failing ? ('failing' as const) : ('prompt' as const),
        eventId: r.event_id,
        attempt: r.attempt,
        url: r.url,
        secret: r.secret,
        leaseToken,
      }));
      return { jobs, nextDueAt: next[0]?.at ?? null };
    });
  }

  /**
   * Moves endpoints between lanes, for every instance's next claim: `failing` ones (an attempt
   * failed, or ran past the prompt time) to the failing lane, `prompt` ones (an attempt of the
   * failing lane answered 2xx promptly) back. Rows already where they belong are not touched;
   * the others are locked in id order, so two instances marking the same endpoints never deadlock.
   */
  async markLanes(failing: readonly string[], prompt: readonly { id: string; since: Date }[]): Promise<void> {
    if (failing.length === 0 && prompt.length === 0) return;
    // a prompt answer clears only a failing mark older than its attempt: a late mark from an attempt
    // that began before another instance saw the endpoint fail leaves that newer evidence standing
    await this.db.query(
      `${WORKER_SQL_TAG}
       WITH prompt AS (SELECT * FROM unnest($2::uuid[], $3::timestamptz[]) AS p(id, since)),
       target AS (
         SELECT w.id, w.id = ANY ($1::uuid[]) AS failing FROM webhook_endpoints w
          WHERE (w.id = ANY ($1::uuid[]) AND w.failing_since IS NULL)
             OR EXISTS (SELECT 1 FROM prompt p WHERE p.id = w.id AND w.failing_since < p.since)
          ORDER BY w.id
            FOR NO KEY UPDATE OF w
       )
       UPDATE webhook_endpoints w SET failing_since = CASE WHEN t.failing THEN now() END FROM target t WHERE w.id = t.id`,
      [failing, prompt.map((p) => p.id), prompt.map((p) => p.since)],
    );
  }

  /**
   * Records attempts, one delivery row each, in one statement, its `created_at` when the attempt
   * was made (CONTRACT §16: a record written after a long wait still says when it began). An attempt with `retryInMs` makes
   * its job due again then; without, the job is done (delivered, or out of attempts) and goes.
   * Only while the lease is still the attempt's: one whose lease was lost (it ran out and another
   * instance took the job, or the endpoint was deleted) writes nothing. Answers the attempts
   * recorded, as `endpointId/eventId/attempt` keys.
   */
  async record(attempts: readonly RecordedAttempt[]): Promise<Set<string>> {
    if (attempts.length === 0) return new Set();
    const rows = await this.db.query<{ endpoint_id: string; event_id: string; attempt: number }>(
      `${WORKER_SQL_TAG}
       WITH input AS (
         SELECT * FROM unnest($1::bigint[], $2::uuid[], $3::int[], $4::text[], $5::int[], $6::text[], $7::double precision[], $8::timestamptz[])
                    AS i (job_id, token, attempt, status, response_status, error, retry_ms, started_at)
       ),
       retried AS (
         UPDATE webhook_jobs j
            SET attempts = j.attempts + 1, lease_token = NULL, next_attempt_at = now() + make_interval(secs => i.retry_ms / 1000)
           FROM input i
          WHERE j.id = i.job_id AND j.lease_token = i.token AND j.attempts + 1 = i.attempt AND i.retry_ms IS NOT NULL
         RETURNING j.id, j.endpoint_id, j.project_id, j.event_id
       ),
       finished AS (
         DELETE FROM webhook_jobs j USING input i
          WHERE j.id = i.job_id AND j.lease_token = i.token AND j.attempts + 1 = i.attempt AND i.retry_ms IS NULL
         RETURNING j.id, j.endpoint_id, j.project_id, j.event_id
       )
       INSERT INTO webhook_deliveries (endpoint_id, project_id, event_id, attempt, status, response_status, error, created_at)
       SELECT d.endpoint_id, d.project_id, d.event_id, i.attempt, i.status, i.response_status, i.error, i.started_at
         FROM (SELECT * FROM retried UNION ALL SELECT * FROM finished) d JOIN input i ON i.job_id = d.id
        ORDER BY i.started_at, d.id
       RETURNING endpoint_id, event_id, attempt`,
      [
        attempts.map((a) => a.job.jobId),
        attempts.map((a) => a.job.leaseToken),
        attempts.map((a) => a.job.attempt),
        attempts.map((a) => a.status),
        attempts.map((a) => a.responseStatus),
        attempts.map((a) => a.error),
        attempts.map((a) => a.retryInMs),
        attempts.map((a) => a.startedAt),
      ],
    );
    return new Set(rows.map((r) => attemptKey(r.endpoint_id, r.event_id, r.attempt)));
  }

  /** Gives leases back without an attempt (shutdown, or the body could not be rendered): due again after `delayMs`. */
  async release(jobs: readonly ClaimedJob[], delayMs = 0): Promise<void> {
    if (jobs.length === 0) return;
    await this.db.query(
      `${WORKER_SQL_TAG}
       UPDATE webhook_jobs j SET lease_token = NULL, next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
         FROM unnest($1::bigint[], $2::uuid[]) AS held (id, token)
        WHERE j.id = held.id AND j.lease_token = held.token`,
      [jobs.map((j) => j.jobId), jobs.map((j) => j.leaseToken), delayMs],
    );
  }
}

/** One lane's in-flight counts, as rows for the claim's unnest. */
function loadOf<K>(counts: ReadonlyMap<K, number>, failing: boolean): { failing: boolean; key: K; n: number }[] {
  return [...counts].filter(([, n]) => n > 0).map(([key, n]) => ({ failing, key, n }));
}

interface RawClaim {
  job_id: string;
  endpoint_id: string;
  project_id: number;
  owner_id: string;
  failing: boolean;
  event_id: string;
  attempt: number;
  url: string;
  secret: string;
}

/** Sample calls: src/queries/delivery.repository.sql lists the SQL they send (`npm run sql:generate`, src/db/sql-samples.ts). */
const LANE: Omit<LaneLimits, 'load'> = { slots: 10, perOwner: 5 };
const JOB: ClaimedJob = { jobId: '1', endpointId: SAMPLE.id, projectId: SAMPLE.projectId, ownerId: SAMPLE.owner, lane: 'prompt', eventId: SAMPLE.id, attempt: 1, url: 'https://example.com/hook', secret: 'secret', leaseToken: SAMPLE.id };
export const SQL_SAMPLES = sqlSamples({
  open: (db) => new DeliveryRepository(db),
  calls: {
    fanOut: (r) => r.fanOut(100),
    earliestDue: (r) => r.earliestDue(),
    claim: (r) => r.claim({ perEndpoint: 4, lanes: { prompt: { ...LANE, load: new LaneLoad() }, failing: { ...LANE, load: new LaneLoad() } } }, SAMPLE.id, 30_000),
    markLanes: (r) => r.markLanes([SAMPLE.id], [{ id: SAMPLE.id, since: SAMPLE.at }]),
    record: (r) => r.record([{ job: JOB, startedAt: SAMPLE.at, status: 'failed', responseStatus: 500, error: null, retryInMs: 1000 }]),
    release: (r) => r.release([JOB]),
  },
});
