import { CoalescingRunner } from '../../../src/domain/shared/coalescing-runner.js';

/**
 * CoalescingRunner.flush on a stopped runner (the shutdown order: stop, then flush): a poke that
 * arrives while the flush's run ends must not start a run that outlives the flush. The moment of
 * the poke is walked over every microtask step after the work's last turn, so the gap between
 * the run's last check and its `finally` is hit whatever its exact depth.
 */
const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe('CoalescingRunner', () => {
  it('flush on a stopped runner leaves no run behind, whenever a poke comes during it', async () => {
    for (let depth = 0; depth < 20; depth++) {
      let inProgress = 0;
      let afterFlush = 0;
      let flushed = false;
      let turns = 0;
      const runner: CoalescingRunner = new CoalescingRunner(async () => {
        if (flushed) afterFlush += 1;
        inProgress += 1;
        turns += 1;
        // the first turn pokes `depth` microtasks after it ends, as a commit hook or NOTIFY would
        if (turns === 1) void ticks(depth).then(() => runner.poke());
        else await ticks(10); // a later turn takes a while, as a statement does
        inProgress -= 1;
      });
      runner.start();
      await runner.stop();
      await runner.flush();
      flushed = true;
      expect({ depth, inProgress }).toEqual({ depth, inProgress: 0 });
      await ticks(40);
      expect({ depth, afterFlush }).toEqual({ depth, afterFlush: 0 });
      expect(runner.stopped).toBe(true);
    }
  });
});
