/**
 * The two lanes of outbound deliveries (CONTRACT §18, "fair webhooks, between owners first").
 * An endpoint whose last attempt failed, or ran past PROMPT_MS without an answer, is `failing`
 * (webhook_endpoints.failing_since, shared by every instance); its attempts take the slots of
 * the `failing` lane. Every other endpoint's attempts take the `prompt` lane, so endpoints that
 * hang or fail can only ever hold prompt slots for PROMPT_MS each: a prompt-lane attempt still
 * unanswered then is moved to the failing lane (the request goes on; its slot is handed back).
 */
export type Lane = 'prompt' | 'failing';

export const LANES: readonly Lane[] = ['prompt', 'failing'];

/**
 * How long an attempt may run and still count as prompt. Well under §16's 5 s: when prompt-lane
 * slots are all held by endpoints that turn out to hang, they are handed back within this time,
 * and another owner's first attempt takes the next one. A receiver slower than this is still
 * delivered to, in the failing lane.
 */
export const PROMPT_MS = 1_000;

/** Slots of each lane on one instance: a quarter of `concurrency` for failing endpoints (at least 1), the rest prompt. */
export function laneSlots(concurrency: number): Record<Lane, number> {
  const failing = Math.max(1, Math.floor(concurrency / 4));
  return { prompt: Math.max(1, concurrency - failing), failing };
}

/**
 * An owner's share of a lane's slots on one instance: a quarter (at least 1). Below the whole, so
 * that owners whose receivers hang leave slots free for another owner's first attempt at once;
 * the share is not lent out when others are idle, since an attempt cannot be taken back.
 */
export const ownerShare = (slots: number): number => Math.max(1, Math.floor(slots / 4));

/** One lane's attempts in flight on this instance, in total, by owner and by project. */
export class LaneLoad {
  total = 0;
  readonly byOwner = new Map<string, number>();
  readonly byProject = new Map<number, number>();

  add(ownerId: string, projectId: number, delta: 1 | -1): void {
    this.total += delta;
    bump(this.byOwner, ownerId, delta);
    bump(this.byProject, projectId, delta);
  }
}

function bump<K>(counts: Map<K, number>, key: K, delta: number): void {
  const n = (counts.get(key) ?? 0) + delta;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
