import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether `given` is the configured secret (`admin_token`, the metrics bearer token), in time
 * independent of where they differ (CONTRACT §18): both sides are hashed first, so the comparison
 * runs over equal lengths and its time does not reveal the secret's length either.
 */
export function secretMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(expected), digest(given));
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
