import { randomUUID } from 'node:crypto';
import type { NotificationChannel } from '../../db/notifications.js';
import { outsideStatementScope } from '../../db/statement-counter.js';
import type { Logger } from '../../logger.js';
import { isLastAttempt, retryDelayMs, type RetrySchedule } from './backoff.js';
import { LANES, LaneLoad, laneSlots, ownerShare, PROMPT_MS, type Lane } from './delivery-lanes.js';
import { attemptKey, type ClaimedJob, type DeliveryRepository, type RecordedAttempt } from './delivery.repository.js';
import { signatureHeaders } from './webhook-signature.js';
import type { SendResult, WebhookSender } from './webhook-sender.js';

export interface DeliveryWorkerOptions extends RetrySchedule {
  /** Attempts in flight at once on this instance, both lanes together (delivery-lanes.ts). */
  concurrency: number;
  /** How long an attempt may run and still count as prompt (default PROMPT_MS); past it, its endpoint is failing. */
  promptMs?: number;
  /** Longest pause between two looks at the database while jobs exist (other instances' retries and leases). */
  pollMs: number;
  /** The pause while no job exists at all (default: max(pollMs, IDLE_POLL_MS)). */
  idlePollMs?: number;
  /** How long a claimed job stays this instance's; past it, another instance may attempt it. Longer than the send timeout. */
  leaseMs: number;
  /** Events turned into jobs per fan-out statement. */
  fanOutBatch: number;
}

/** The outbound body (CONTRACT §16): `data` is the resource as REST shows it. */
export interface WebhookPayload {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

/** Renders the bodies of events by id (the events core's presenter); an id it cannot render is absent. */
export type PayloadRenderer = (eventIds: readonly string[]) => Promise<Map<string, WebhookPayload>>;

/** One attempt, as recorded (tests and logs follow them). */
export interface AttemptReport {
  endpointId: string;
  eventId: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  error: string | null;
  /** When the next attempt is due, or null when this one was the last. */
  retryInMs: number | null;
  /** False when the lease was lost meanwhile (the attempt was not recorded). */
  recorded: boolean;
}

export interface DeliveryWorkerStats {
  inFlight: number;
  /** Of them, by lane (an attempt moved to the failing lane counts there). */
  lanes: Record<Lane, number>;
  succeeded: number;
  failed: number;
  /** Events whose last attempt failed: no more tries. */
  abandoned: number;
}

/** Fan-out statements per pass at most: a long backlog is worked through pass after pass. */
const MAX_FAN_OUT_ROUNDS = 20;
/** Another instance (or an endpoint's creation) holds the fan-out: look again this soon. */
const FAN_OUT_BUSY_RETRY_MS = 100;
/** An event whose body could not be rendered (a database error) is tried again this much later. */
const RENDER_RETRY_MS = 5_000;
/**
 * The look while no job exists anywhere: a job appears only by a fan-out of newly numbered events,
 * which every instance hears (NOTIFY ledger_events, or a re-connection after a lost listener) and
 * follows at once; this look is only the last resort.
 */
export const IDLE_POLL_MS = 30_000;
/** Attempts recorded per statement at most. */
const RECORD_BATCH = 500;
/** Attempts to one endpoint in flight at once, on all instances together (CONTRACT §18). */
export const ENDPOINT_IN_FLIGHT = 4;

/**
 * Delivers outbound webhooks (CONTRACT §16), on every instance. A pass turns newly numbered events
 * into jobs (one per matching endpoint), claims due jobs under a lease (FOR UPDATE SKIP LOCKED:
 * each attempt is made by exactly one instance), and POSTs them, signed, each attempt recorded
 * by the lease holder. Claims are fair (CONTRACT §18, DeliveryRepository.claim): at most
 * ENDPOINT_IN_FLIGHT attempts to one endpoint across all instances; endpoints that failed or
 * hung are served in a lane of their own (delivery-lanes.ts), and a prompt-lane attempt that
 * runs past the prompt time leaves its lane; in each lane, owners are served round-robin, then
 * an owner's projects, and one owner never holds more than its share of the lane's slots here,
 * so receivers that hang or fail never keep a prompt endpoint's first attempt waiting past the
 * prompt time. Passes run when events are numbered (NOTIFY `ledger_events`, on every
 * instance within milliseconds of the commit), when a retry falls due, when a slot frees up,
 * and every `pollMs` at least. All state is in PostgreSQL: a restart, or a crash (the lease runs
 * out), loses nothing; an attempt cut short may reach the receiver twice (at least once).
 */
export class DeliveryWorker {
  private stopped = true;
  private again = false;
  /** New events may be numbered: the next pass fans out first. */
  private fanOutWanted = true;
  /** Attempts made, waiting for the statement that records them (one statement records all that wait). */
  private readonly unrecorded: { attempt: RecordedAttempt; settle: (recorded: boolean | Error) => void }[] = [];
  private recording: Promise<void> | null = null;
  private pumping: Promise<void> | null = null;
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeTimerAt = Infinity;
  private pollTimer: NodeJS.Timeout | null = null;
  private pollPeriod = 0;
  /** The last pass found no job at all and nothing to fan out (the idle look then waits idlePollMs). */
  private quiet = false;
  /** Attempts under way, until recorded (shutdown waits for them). */
  private readonly inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Attempts whose request is under way: what `concurrency` bounds (recording is batched apart). */
  private sending = 0;
  /** `sending` by lane, owner and project: what the lanes' slots and the owners' shares bound. */
  private readonly load: Record<Lane, LaneLoad> = { prompt: new LaneLoad(), failing: new LaneLoad() };
  private readonly slots: Record<Lane, number>;
  private readonly promptMs: number;
  /** Endpoints seen failing, or prompt again, since the last pass: written to webhook_endpoints by the next one. */
  /** Per endpoint, the lane its latest attempt showed, and when that attempt began (a `prompt` mark clears only older `failing` ones). */
  private readonly laneMarks = new Map<string, { lane: Lane; since: Date }>();
  private readonly unsubscribers: (() => void)[] = [];
  private readonly listeners = new Set<(report: AttemptReport) => void>();
  private readonly counters: Omit<DeliveryWorkerStats, 'lanes'> = { inFlight: 0, succeeded: 0, failed: 0, abandoned: 0 };

  constructor(
    private readonly repository: DeliveryRepository,
    private readonly sender: WebhookSender,
    private readonly render: PayloadRenderer,
    private readonly notifications: NotificationChannel,
    private readonly logger: Logger,
    private readonly options: DeliveryWorkerOptions,
    private readonly countAttempt: (outcome: 'succeeded' | 'failed') => void = () => undefined,
  ) {
    this.slots = laneSlots(options.concurrency);
    this.promptMs = options.promptMs ?? PROMPT_MS;
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.unsubscribers.push(await this.notifications.subscribe('ledger_events', () => this.wake(true)));
    this.unsubscribers.push(this.notifications.onReconnect(() => this.wake(true)));
    const { concurrency, pollMs, leaseMs, baseMs, maxAttempts } = this.options;
    const ownerShares = { prompt: ownerShare(this.slots.prompt), failing: ownerShare(this.slots.failing) };
    this.logger.info({ concurrency, laneSlots: this.slots, ownerShares, promptMs: this.promptMs, endpointInFlight: ENDPOINT_IN_FLIGHT, pollMs, idlePollMs: this.idlePollMs(), leaseMs, retryBaseMs: baseMs, maxAttempts }, 'webhook delivery worker started');
    this.wake(true);
  }

  /**
   * Stops claiming; attempts in flight may finish for up to `graceMs`, then those still running
   * are cut and their jobs released (due at once, for another instance or the next start).
   */
  async stop(graceMs: number): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    if (this.pollTimer) clearTimeout(this.pollTimer);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    await this.pumping;
    const running = () => Promise.all([...this.inFlight.values()].map((a) => a.done));
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([running(), new Promise((resolve) => (grace = setTimeout(resolve, graceMs)))]);
    clearTimeout(grace);
    const cut = this.sending;
    for (const attempt of this.inFlight.values()) attempt.controller.abort();
    await running();
    this.sender.close();
    this.logger.info({ released: cut }, 'webhook delivery worker stopped');
  }

  /** Calls `listener` after each attempt is recorded; returns the unsubscribe. */
  onAttempt(listener: (report: AttemptReport) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): DeliveryWorkerStats {
    return { ...this.counters, inFlight: this.sending, lanes: { prompt: this.load.prompt.total, failing: this.load.failing.total } };
  }

  /** The pause until the next look armed after the last pass: pollMs, or idlePollMs while no job exists (tests). */
  pollPeriodMs(): number {
    return this.pollPeriod;
  }

  /** Resolves when the passes under way (and those they asked for) are done (tests). */
  async settled(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  private idlePollMs(): number {
    return this.options.idlePollMs ?? Math.max(this.options.pollMs, IDLE_POLL_MS);
  }

  /** The next look: every pass re-arms it, pollMs ahead, or idlePollMs when the pass found no job at all. */
  private armPoll(): void {
    if (this.stopped) return;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollPeriod = this.quiet ? this.idlePollMs() : this.options.pollMs;
    this.pollTimer = setTimeout(() => this.wake(true), this.pollPeriod);
    this.pollTimer.unref();
  }

  /** Runs a pass now, or right after the one under way; `fanOut`: events may have been numbered. */
  wake(fanOut = false): void {
    if (this.stopped) return;
    if (fanOut) this.fanOutWanted = true;
    this.again = true;
    if (this.pumping) return;
    // background work: never counted as a request's statements, whoever woke it
    this.pumping = outsideStatementScope(async () => {
      while (this.again && !this.stopped) {
        this.again = false;
        await this.pass();
      }
    })
      .catch((err: unknown) => this.logger.error({ err }, 'webhook delivery pass failed; retried at the next poll'))
      .finally(() => {
        this.pumping = null;
        if (this.again) this.wake();
        else this.armPoll();
      });
  }

  private wakeIn(ms: number, fanOut = false): void {
    if (fanOut) this.fanOutWanted = true;
    const at = Date.now() + Math.max(0, ms);
    if (this.stopped || at >= this.wakeTimerAt) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimerAt = at;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.wakeTimerAt = Infinity;
      this.wake();
    }, at - Date.now());
    this.wakeTimer.unref();
  }

  private async pass(): Promise<void> {
    this.quiet = false;
    if (this.fanOutWanted) await this.fanOut();
    await this.writeLaneMarks();
    // a lane's attempts moved to the failing lane may overfill it: none free there until they end
    const free = { prompt: Math.max(0, this.slots.prompt - this.load.prompt.total), failing: Math.max(0, this.slots.failing - this.load.failing.total) };
    // claims refill slots in batches, a quarter of a lane at least (a claim per freed slot would cost a statement per attempt)
    const worthClaiming = LANES.some((lane) => free[lane] >= Math.ceil(this.slots[lane] / 4));
    if (this.stopped || (!worthClaiming && this.sending > 0)) return; // a finishing or moved attempt wakes the worker
    const earliest = await this.repository.earliestDue();
    if (!earliest) {
      this.quiet = this.sending === 0 && !this.fanOutWanted;
      return;
    }
    if (!earliest.due) return this.wakeIn(earliest.at.getTime() - Date.now());
    const lane = (l: Lane) => ({ slots: free[l], perOwner: ownerShare(this.slots[l]), load: this.load[l] });
    const limits = { perEndpoint: ENDPOINT_IN_FLIGHT, lanes: { prompt: lane('prompt'), failing: lane('failing') } };
    const { jobs, nextDueAt } = await this.repository.claim(limits, randomUUID(), this.options.leaseMs);
    if (jobs.length > 0) await this.begin(jobs);
    // due jobs held back by a cap are taken when a slot frees here (wake) or at the next poll (another instance's)
    if (jobs.length < free.prompt + free.failing && nextDueAt) this.wakeIn(nextDueAt.getTime() - Date.now());
  }

  /** Notes an endpoint's lane as its latest attempt showed it; the next pass writes it for every instance. */
  private markLane(endpointId: string, lane: Lane, since = new Date()): void {
    this.laneMarks.set(endpointId, { lane, since });
  }

  /**
   * After an attempt claimed in `job.lane` and ended in `lane`: a failing endpoint that answered
   * 2xx promptly is prompt again; a prompt one that failed is failing (one that ran past the prompt
   * time was marked when it left the prompt lane).
   */
  private noteLane(job: ClaimedJob, lane: Lane, prompt: boolean, startedAt: Date): void {
    if (prompt && job.lane === 'failing') this.markLane(job.endpointId, 'prompt', startedAt);
    else if (!prompt && lane === 'prompt') this.markLane(job.endpointId, 'failing');
  }

  private async writeLaneMarks(): Promise<void> {
    if (this.laneMarks.size === 0) return;
    const marks = [...this.laneMarks];
    this.laneMarks.clear();
    try {
      await this.repository.markLanes(
        marks.filter(([, m]) => m.lane === 'failing').map(([id]) => id),
        marks.filter(([, m]) => m.lane === 'prompt').map(([id, m]) => ({ id, since: m.since })),
      );
    } catch (err) {
      // kept for the next pass, unless an attempt ended since and marked the endpoint afresh
      for (const [id, l] of marks) if (!this.laneMarks.has(id)) this.laneMarks.set(id, l);
      throw err;
    }
  }

  private async fanOut(): Promise<void> {
    this.fanOutWanted = false;
    for (let round = 0; round < MAX_FAN_OUT_ROUNDS; round++) {
      const result = await this.repository.fanOut(this.options.fanOutBatch);
      if (result.busy) return this.wakeIn(FAN_OUT_BUSY_RETRY_MS, true);
      if (result.scanned < this.options.fanOutBatch) return;
    }
    this.fanOutWanted = true;
    this.again = true;
  }

  private async begin(jobs: ClaimedJob[]): Promise<void> {
    if (this.stopped) return this.repository.release(jobs);
    let payloads: Map<string, WebhookPayload>;
    try {
      payloads = await this.render([...new Set(jobs.map((j) => j.eventId))]);
    } catch (err) {
      this.logger.error({ err, jobs: jobs.length }, 'rendering webhook bodies failed; released for a later attempt');
      return this.repository.release(jobs, RENDER_RETRY_MS);
    }
    const unrenderable = jobs.filter((j) => !payloads.has(j.eventId));
    if (unrenderable.length > 0) {
      this.logger.error({ eventIds: unrenderable.map((j) => j.eventId) }, 'webhook events without a body; released for a later attempt');
      await this.repository.release(unrenderable, RENDER_RETRY_MS);
    }
    for (const job of jobs) {
      const payload = payloads.get(job.eventId);
      if (!payload) continue;
      const controller = new AbortController();
      const done = this.attempt(job, JSON.stringify(payload), controller.signal)
        .catch((err: unknown) => this.logger.error({ err, jobId: job.jobId }, 'webhook attempt failed to record; retried when its lease ends'))
        .finally(() => this.inFlight.delete(job.jobId));
      this.inFlight.set(job.jobId, { controller, done });
    }
  }

  private async attempt(job: ClaimedJob, body: string, signal: AbortSignal): Promise<void> {
    const startedAt = new Date();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    let lane = job.lane;
    this.sending += 1;
    this.load[lane].add(job.ownerId, job.projectId, 1);
    // still unanswered after the prompt time: the request goes on in the failing lane, its prompt slot is free for others
    const leavePromptLane =
      lane === 'prompt'
        ? setTimeout(() => {
            this.load.prompt.add(job.ownerId, job.projectId, -1);
            this.load.failing.add(job.ownerId, job.projectId, 1);
            lane = 'failing';
            this.markLane(job.endpointId, 'failing');
            this.wake();
          }, this.promptMs)
        : undefined;
    let result: SendResult | undefined;
    try {
      result = await this.sender.send(job.url, signatureHeaders(job.secret, job.eventId, timestamp, body), body, signal);
    } finally {
      clearTimeout(leavePromptLane);
      this.sending -= 1;
      this.load[lane].add(job.ownerId, job.projectId, -1);
      if (result && !result.aborted) this.noteLane(job, lane, result.ok && Date.now() - startedAt.getTime() < this.promptMs, startedAt);
      this.wake(); // the pass it runs writes the lane noted
    }
    if (result.aborted) return this.repository.release([job]);
    const last = result.ok || isLastAttempt(this.options, job.attempt);
    const retryInMs = last ? null : retryDelayMs(this.options, job.attempt);
    const status = result.ok ? 'succeeded' : 'failed';
    this.countAttempt(status);
    this.counters[status] += 1;
    if (!result.ok && retryInMs === null) this.counters.abandoned += 1;
    const recorded = await this.record({ job, startedAt, status, responseStatus: result.responseStatus, error: result.error, retryInMs });
    if (retryInMs !== null) this.wakeIn(retryInMs);
    this.log(job, result, retryInMs, recorded);
    const report: AttemptReport = { endpointId: job.endpointId, eventId: job.eventId, attempt: job.attempt, status, responseStatus: result.responseStatus, error: result.error, retryInMs, recorded };
    for (const listener of this.listeners) listener(report);
  }

  /** Queues the attempt for the next recording statement; resolves once it is written (false: its lease was lost). */
  private record(attempt: RecordedAttempt): Promise<boolean> {
    const written = new Promise<boolean>((resolve, reject) => {
      this.unrecorded.push({ attempt, settle: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)) });
    });
    this.flushRecords();
    return written;
  }

  private flushRecords(): void {
    if (this.recording || this.unrecorded.length === 0) return;
    this.recording = (async () => {
      while (this.unrecorded.length > 0) {
        const batch = this.unrecorded.splice(0, RECORD_BATCH);
        try {
          const recorded = await this.repository.record(batch.map((b) => b.attempt));
          for (const { attempt: a, settle } of batch) settle(recorded.has(attemptKey(a.job.endpointId, a.job.eventId, a.job.attempt)));
        } catch (error) {
          for (const { settle } of batch) settle(error instanceof Error ? error : new Error(String(error)));
        }
      }
    })().finally(() => {
      this.recording = null;
      this.flushRecords();
    });
  }

  private log(job: ClaimedJob, result: SendResult, retryInMs: number | null, recorded: boolean): void {
    const fields = { endpointId: job.endpointId, eventId: job.eventId, attempt: job.attempt, responseStatus: result.responseStatus, error: result.error ?? undefined, retryInMs: retryInMs ?? undefined };
    if (!recorded) this.logger.warn(fields, 'webhook attempt not recorded: its lease was lost (or the endpoint deleted)');
    else if (result.ok) this.logger.debug(fields, 'webhook delivered');
    else if (retryInMs !== null) this.logger.info(fields, 'webhook attempt failed; retrying');
    else this.logger.warn(fields, 'webhook attempt failed; no attempts left');
  }
}
