import { Writable } from 'node:stream';
import { pino } from 'pino';
import { HoldRepository } from '../../../src/domain/holds/hold.repository.js';
import { LotRepository } from '../../../src/domain/lots/lot.repository.js';
import { IDLE_MAX_MS, ExpirySweeper } from '../../../src/domain/shared/expiry-sweeper.js';
import type { Timer } from '../../../src/domain/shared/timer.js';
import { expectStatus, fundedProject, transfer } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/** The background sweeper (src/domain/shared/expiry-sweeper.ts) over the holds' and the lots' rounds, as services.ts wires it: batches, logs, stats, a clean stop. */
const dueWork = () => [{ sweep: (n: number) => new HoldRepository(t.db).sweepDue(n) }, new LotRepository(t.db)];
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ lotSweep: { intervalMs: 0, batchSize: 500 } });
});
afterAll(() => t.close());

function capture() {
  const lines: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, sink) };
}

/** `lots` due lots in a fresh project (one customer wallet each). */
async function dueLots(owner: string, lots: number): Promise<void> {
  const key = await t.issueKey(owner, 'enterprise');
  const f = await fundedProject(t, key, { customers: lots, systemBalance: '1000' });
  await expectStatus(t.request('PUT', `/assets/${f.assetId}`, { key, body: { expiresAfterSeconds: 3600 } }), 200);
  for (const c of f.customers) await transfer(t, f, f.system.id, c.id, 1);
  await t.db.query(`UPDATE lots SET expires_at = clock_timestamp()::timestamptz(3) - interval '1 second' WHERE project_id = $1`, [f.projectId]);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 20_000; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ExpirySweeper', () => {
  it('sweeps on its interval in batches until a batch comes back short, and logs and counts what it did', async () => {
    await dueLots('sweeper-batches', 5);
    const { lines, logger } = capture();
    const sweeper = new ExpirySweeper(dueWork(), logger, { intervalMs: 20, batchSize: 2 });
    sweeper.start();
    try {
      expect(lines.find((l) => l.msg === 'expiry sweeper started')).toMatchObject({ intervalMs: 20, batchSize: 2 });
      await until(() => sweeper.stats().expiredTotal >= 5, 'five expiries');
      const sweep = lines.find((l) => l.msg === 'expiry sweep');
      expect(sweep).toMatchObject({ expired: 5, batchSize: 2, intervalMs: 20 }); // one sweep, three batches
      expect(sweep!.maxLagMs).toBeGreaterThanOrEqual(1000);
      expect(sweeper.stats()).toMatchObject({ intervalMs: 20, batchSize: 2, expiredTotal: 5, lastLagMs: sweep!.maxLagMs });
    } finally {
      await sweeper.stop();
    }
  });

  it('stop() waits for a sweep under way and schedules no other', async () => {
    const { logger } = capture();
    const sweeper = new ExpirySweeper(dueWork(), logger, { intervalMs: 1, batchSize: 10 });
    sweeper.start();
    await until(() => sweeper.stats().sweeps >= 3, 'three sweeps');
    await sweeper.stop();
    const after = sweeper.stats().sweeps;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sweeper.stats().sweeps).toBe(after);
  });

  it('interval 0 schedules nothing (the configuration refuses it; tests drive the sweeps)', async () => {
    const { lines, logger } = capture();
    const sweeper = new ExpirySweeper(dueWork(), logger, { intervalMs: 0, batchSize: 10 });
    sweeper.start();
    await sweeper.stop();
    expect(lines.map((l) => l.msg)).toEqual(['expiry sweeper not scheduled (interval 0)']);
    expect(sweeper.stats().sweeps).toBe(0);
  });
});

/** The test's timer: records each arming; `fire` runs the one armed now and resolves with the next pause armed. */
function testTimer() {
  let armed: { ms: number; fire: () => void } | null = null;
  let waiter: ((ms: number) => void) | null = null;
  const timer: Timer = (fire, ms) => {
    const entry = { ms, fire };
    armed = entry;
    waiter?.(ms);
    waiter = null;
    return () => {
      if (armed === entry) armed = null;
    };
  };
  const nextArming = () => new Promise<number>((resolve) => (waiter = resolve));
  const fire = async () => {
    const next = nextArming();
    const entry = armed!;
    armed = null;
    entry.fire();
    return next;
  };
  return { timer, fire, nextArming, armedMs: () => armed?.ms ?? null };
}

describe('ExpirySweeper pauses', () => {
  it('doubles its pause while sweeps find nothing, up to IDLE_MAX_MS; a sweep that expires something comes back to the interval', async () => {
    const clock = testTimer();
    const sweeper = new ExpirySweeper(dueWork(), capture().logger, { intervalMs: 1_000, batchSize: 100, timer: clock.timer });
    sweeper.start();
    try {
      expect(clock.armedMs()).toBe(1_000);
      expect(await clock.fire()).toBe(2_000);
      expect(await clock.fire()).toBe(4_000);
      expect(await clock.fire()).toBe(IDLE_MAX_MS);
      expect(await clock.fire()).toBe(IDLE_MAX_MS);
      await dueLots('sweeper-pauses', 2);
      expect(await clock.fire()).toBe(1_000);
      expect(sweeper.stats().lastExpired).toBe(2);
      expect(await clock.fire()).toBe(2_000);
    } finally {
      await sweeper.stop();
    }
  });

  it('never pauses longer than its interval when the interval is longer than IDLE_MAX_MS', async () => {
    const clock = testTimer();
    const sweeper = new ExpirySweeper(dueWork(), capture().logger, { intervalMs: 20_000, batchSize: 100, timer: clock.timer });
    sweeper.start();
    try {
      expect(await clock.fire()).toBe(20_000);
    } finally {
      await sweeper.stop();
    }
  });

  it('a posting on the instance cuts a long pause back to the interval (the posting queue wakes it)', async () => {
    const clock = testTimer();
    const app = await startTestApp({ databaseUrl: t.databaseUrl, lotSweep: { intervalMs: 1_000, batchSize: 100, timer: clock.timer } });
    try {
      const key = await app.issueKey('sweeper-wake', 'enterprise');
      const f = await fundedProject(app, key, { customers: 1, systemBalance: '10' });
      while ((await clock.fire()) < IDLE_MAX_MS);
      const rearmed = clock.nextArming();
      await transfer(app, f, f.system.id, f.customers[0].id, 1);
      expect(await rearmed).toBe(1_000);
    } finally {
      await app.close();
    }
  });
});
