/**
 * The retry schedule of outbound webhooks (CONTRACT §16; docs/decisions/webhook-delivery-queue.md): after failed attempt
 * n, the next one waits `baseMs × 3^(n−1)`, ±10 % jitter so that the retries of many events do
 * not arrive together. With the defaults (10 s, 8 attempts): retries after 10 s, 30 s, 1.5 min,
 * 4.5 min, 13.5 min, 40.5 min and 2 h 1.5 min, the last attempt about 3 h after the first.
 */
export interface RetrySchedule {
  baseMs: number;
  maxAttempts: number;
}

/** The jitter: a delay is its nominal value × (1 ± JITTER). */
const JITTER = 0.1;
/** CONTRACT §16: the first retry within 30 s, at least 6 attempts over at least 1 hour. */
export const CONTRACT_RETRY = { firstRetryWithinMs: 30_000, minAttempts: 6, minSpanMs: 3_600_000 } as const;

export function retryDelayMs(schedule: RetrySchedule, failedAttempt: number, random: () => number = Math.random): number {
  const nominal = schedule.baseMs * 3 ** (failedAttempt - 1);
  return Math.round(nominal * (1 - JITTER + 2 * JITTER * random()));
}

/** The longest wait before the first retry (jitter at its top). */
export const latestFirstRetryMs = (schedule: RetrySchedule): number => Math.ceil(schedule.baseMs * (1 + JITTER));

/** The shortest time from the first attempt to the last (every delay at the bottom of its jitter). */
export function shortestSpanMs(schedule: RetrySchedule): number {
  let span = 0;
  for (let failed = 1; failed < schedule.maxAttempts; failed++) span += Math.floor(schedule.baseMs * 3 ** (failed - 1) * (1 - JITTER));
  return span;
}

/** Why the schedule breaks CONTRACT_RETRY, or null when it keeps it whatever the jitter draws. */
export function retryScheduleProblem(schedule: RetrySchedule): string | null {
  if (schedule.maxAttempts < CONTRACT_RETRY.minAttempts) return `allows ${schedule.maxAttempts} attempts; at least ${CONTRACT_RETRY.minAttempts} are due`;
  if (latestFirstRetryMs(schedule) > CONTRACT_RETRY.firstRetryWithinMs) return `puts the first retry up to ${latestFirstRetryMs(schedule)} ms after the first attempt; it is due within 30 s`;
  if (shortestSpanMs(schedule) < CONTRACT_RETRY.minSpanMs) {
    return `spans as little as ${Math.round(shortestSpanMs(schedule) / 60_000)} min from the first attempt to the last; at least 1 hour is due`;
  }
  return null;
}

/** Whether the attempt that just failed was the last one. */
export const isLastAttempt = (schedule: RetrySchedule, attempt: number): boolean => attempt >= schedule.maxAttempts;
