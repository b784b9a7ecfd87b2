/**
 * The retry schedule of outbound webhooks (CONTRACT §16; docs/decisions.md): after failed attempt
 * n, the next one waits `baseMs × 3^(n−1)`, ±10 % jitter so that the retries of many events do
 * not arrive together. With the defaults (10 s, 8 attempts): retries after 10 s, 30 s, 1.5 min,
 * 4.5 min, 13.5 min, 40.5 min and 2 h 1.5 min, the last attempt about 3 h after the first.
 */
export interface RetrySchedule {
  baseMs: number;
  maxAttempts: number;
}

export function retryDelayMs(schedule: RetrySchedule, failedAttempt: number, random: () => number = Math.random): number {
  const nominal = schedule.baseMs * 3 ** (failedAttempt - 1);
  return Math.round(nominal * (0.9 + 0.2 * random()));
}

/** Whether the attempt that just failed was the last one. */
export const isLastAttempt = (schedule: RetrySchedule, attempt: number): boolean => attempt >= schedule.maxAttempts;
