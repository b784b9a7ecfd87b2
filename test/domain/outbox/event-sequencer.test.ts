import { randomUUID } from 'node:crypto';
import { NotificationChannel } from '../../../src/db/notifications.js';
import { OutboxRepository } from '../../../src/domain/outbox/outbox.repository.js';
import { EventSequencer, TICK_MAX_MS, TICK_MS } from '../../../src/domain/outbox/event-sequencer.js';
import type { Timer } from '../../../src/domain/shared/timer.js';
import { JournalRepository } from '../../../src/domain/journal/journal.repository.js';
import { JournalWriter } from '../../../src/domain/journal/journal-writer.js';
import { createLogger } from '../../../src/logger.js';
import { fundedProject } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * The sequencer's safety tick (events a dead instance committed but never numbered): every
 * second while anything happens, doubling up to TICK_MAX_MS while nothing does, back to a second
 * at the first sign of activity — a commit here or a numbering anywhere (its NOTIFY). The app's
 * own sequencer is stopped; the one under test runs on the test's timer, so nothing sleeps.
 */
let t: TestApp;
let projectId: number;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
  projectId = (await fundedProject(t, { owner: 'sequencer-tick' }, { customers: 1, systemBalance: '10' })).projectId;
  await t.app.services.eventSequencer.stop();
  await t.app.services.eventSequencer.flush();
});
afterAll(() => t.close());

/** The test's timer: each arming is recorded; `fire` runs the one armed now. */
function testTimer() {
  const armed: { ms: number; fire: () => void; cancelled: boolean }[] = [];
  const waiters: ((ms: number) => void)[] = [];
  const timer: Timer = (fire, ms) => {
    const entry = { ms, fire, cancelled: false };
    armed.push(entry);
    for (const wake of waiters.splice(0)) wake(ms);
    return () => (entry.cancelled = true);
  };
  const current = () => {
    const live = armed.filter((a) => !a.cancelled);
    expect(live).toHaveLength(1); // one tick armed at a time
    return live[0];
  };
  return {
    timer,
    current,
    /** Ticks armed and neither fired nor cancelled. */
    live: () => armed.filter((a) => !a.cancelled).length,
    /** Resolves with the period of the next arming. */
    nextArming: () => new Promise<number>((resolve) => waiters.push(resolve)),
  };
}

/** The real journal writer, counting the pokes it gets (not started: a poke runs nothing). */
class CountingJournal extends JournalWriter {
  pokes = 0;
  override poke(): void {
    this.pokes += 1;
    super.poke();
  }
}

/** The real repository, calling the test's hook as each numbering run starts (to act during a run). */
class HookedEvents extends OutboxRepository {
  hook?: () => void;
  /** The database is restarting: numbering fails. */
  failing = false;
  override sequenceCommitted(options?: Parameters<OutboxRepository['sequenceCommitted']>[0]): Promise<void> {
    this.hook?.();
    if (this.failing) return Promise.reject(new Error('the database system is starting up'));
    return super.sequenceCommitted(options);
  }
}

/** The real journal repository, failing while the test says the database restarts. */
class FailingJournal extends JournalRepository {
  failing = false;
  override next(limit: number): ReturnType<JournalRepository['next']> {
    if (this.failing) return Promise.reject(new Error('the database system is starting up'));
    return super.next(limit);
  }
}

/** Every sequencer and journal writer a test started, stopped after it whatever it asserted. */
const started: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const worker of started.splice(0)) await worker.stop();
});

/**
 * A started sequencer on a test timer, stopped after the test. Its journal writer counts pokes and
 * is not started, unless the test brings its own (`journal`: started, and stopped after the
 * sequencer, as at shutdown); `withoutJournal`: a sequencer with none.
 */
function sequencerOnTestTimer(options: { journal?: CountingJournal; withoutJournal?: boolean } = {}) {
  const clock = testTimer();
  const journal = options.journal ?? new CountingJournal(new JournalRepository(t.db), createLogger('silent'));
  const events = new HookedEvents(t.db);
  const sequencer = new EventSequencer(events, createLogger('silent'), options.withoutJournal ? undefined : journal, clock.timer);
  if (options.journal) {
    journal.start();
    started.push(journal);
  }
  sequencer.start();
  started.unshift(sequencer);
  /** Fires the armed tick and resolves with the period armed after its run. */
  const tick = async () => {
    const next = clock.nextArming();
    const armed = clock.current();
    armed.cancelled = true; // fired: no longer armed
    armed.fire();
    return next;
  };
  return { clock, events, journal, sequencer, tick };
}

/** An event committed by an instance that died before numbering it: written, never poked. */
const orphanEvent = () => t.db.query(`SELECT ledger_emit($1, 'wallet.status_changed', $2, 'active', now())`, [projectId, randomUUID()]);
const unnumbered = async () => Number((await t.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM events WHERE seq IS NULL`))[0].n);

describe('EventSequencer safety tick', () => {
  it('doubles its period while nothing happens, up to TICK_MAX_MS, and leaves the journal asleep', async () => {
    const { clock, journal, tick } = sequencerOnTestTimer();
    expect(clock.current().ms).toBe(TICK_MS);
    expect(await tick()).toBe(2_000);
    expect(await tick()).toBe(TICK_MAX_MS);
    expect(await tick()).toBe(TICK_MAX_MS);
    expect(journal.pokes).toBe(0);
  });

  it('numbers what a dead instance left at the next tick, wakes the journal and ticks every second again', async () => {
    const { journal, tick } = sequencerOnTestTimer();
    await tick();
    expect(await tick()).toBe(TICK_MAX_MS);
    await orphanEvent();
    expect(await unnumbered()).toBe(1);
    expect(await tick()).toBe(TICK_MS);
    expect(await unnumbered()).toBe(0);
    expect(journal.pokes).toBe(1);
    expect(await tick()).toBe(2_000); // nothing since: quiet again
    expect(journal.pokes).toBe(1);
  });

  it('comes back to a one-second tick at once when a commit here pokes it', async () => {
    const { clock, sequencer, tick } = sequencerOnTestTimer();
    await tick();
    expect(await tick()).toBe(TICK_MAX_MS);
    const rearmed = clock.nextArming();
    sequencer.poke();
    expect(await rearmed).toBe(TICK_MS);
    await sequencer.flush();
    expect(clock.current().ms).toBe(TICK_MS);
  });

  it("comes back to a one-second tick at once when another instance's numbering is heard (NOTIFY ledger_events)", async () => {
    const { clock, journal, sequencer, tick } = sequencerOnTestTimer();
    const notifications = new NotificationChannel(t.databaseUrl, createLogger('silent'));
    const unfollow = await sequencer.follow(notifications);
    await notifications.start();
    try {
      await tick();
      expect(await tick()).toBe(TICK_MAX_MS);
      const rearmed = clock.nextArming();
      await t.db.query(`SELECT pg_notify('ledger_events', '0')`); // from another connection, as another instance's run sends it
      expect(await rearmed).toBe(TICK_MS);
      // that instance may die before journaling what it numbered: the next tick wakes this journal writer
      expect(journal.pokes).toBe(0);
      expect(await tick()).toBe(TICK_MS);
      expect(journal.pokes).toBe(1);
    } finally {
      unfollow();
      await notifications.stop();
    }
  });

  it('stop then flush (the shutdown order) leaves no tick armed, though a tick fired during the last run', async () => {
    const { clock, events, sequencer } = sequencerOnTestTimer();
    // the armed tick fires while a commit's run is under way: its run is owed
    events.hook = () => {
      events.hook = undefined;
      const armed = clock.current();
      armed.cancelled = true;
      armed.fire();
    };
    sequencer.poke();
    await sequencer.stop();
    await sequencer.flush();
    expect(clock.live()).toBe(0);
  });

  it('stop then flush leaves no tick armed, though another instance is heard during the flush', async () => {
    const { clock, events, sequencer, tick } = sequencerOnTestTimer();
    await tick();
    expect(await tick()).toBe(TICK_MAX_MS);
    await sequencer.stop();
    events.hook = () => sequencer.heard(); // a NOTIFY during the flush's run
    await sequencer.flush();
    expect(clock.live()).toBe(0);
  });

  it('pokes a journal writer that is behind (its run and its retry failed) at every tick, at one second, until it catches up', async () => {
    const repository = new FailingJournal(t.db);
    const { journal, tick } = sequencerOnTestTimer({ journal: new CountingJournal(repository, createLogger('silent')) });
    try {
      repository.failing = true; // the database restarts
      await orphanEvent();
      expect(await tick()).toBe(TICK_MS); // numbered: the journal is poked, and fails
      await journal.flush(); // its retry fails too
      expect(journal.behind()).toBe(true);
      for (let i = 0; i < 3; i++) {
        const pokes = journal.pokes;
        expect(await tick()).toBe(TICK_MS); // idle ticks, but the journal is behind
        expect(journal.pokes).toBe(pokes + 1);
        await journal.flush();
      }
      repository.failing = false; // back
      const pokes = journal.pokes;
      expect(await tick()).toBe(TICK_MS);
      expect(journal.pokes).toBe(pokes + 1);
      await journal.flush();
      expect(journal.behind()).toBe(false);
      expect(await tick()).toBe(2_000); // caught up: quiet again
      expect(journal.pokes).toBe(pokes + 1);
    } finally {
      repository.failing = false; // its writer's stop after the test must not fail on it
    }
  });

  it('keeps the one-second tick after a failed numbering', async () => {
    const { events, tick } = sequencerOnTestTimer({ withoutJournal: true });
    await tick();
    expect(await tick()).toBe(TICK_MAX_MS);
    events.failing = true;
    expect(await tick()).toBe(TICK_MS);
    expect(await tick()).toBe(TICK_MS);
    events.failing = false;
    expect(await tick()).toBe(2_000);
  });
});
