import { createHash, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { NotificationChannel } from '../../db/notifications.js';
import { KEY_CHANGES_CHANNEL, KEY_ISSUED_CHANNEL, type ApiKeyRepository, type KeyRecord } from './api-key.repository.js';
import { OwnerRule, PREFIX_LENGTH } from './api-key.rules.js';
import { LedgerError, notFound, validationError } from '../errors.js';
import type { Plan } from './plans.js';
import { offsetOf, PageRules, type Page, type PageRequest } from '../shared/paging.js';
import { UuidRule } from '../shared/ids.js';
import { checkField, checkInput } from '../shared/validation.js';

export interface Principal {
  ownerId: string;
  plan: Plan;
  subscriptionCode: string;
}

export interface IssuedKey {
  api_key: string;
  id: string;
  owner: string;
  plan_code: string;
}

export interface ApiKeyServiceOptions {
  /** Milliseconds since the epoch; tests move it to cross the caches' time-outs without waiting. */
  now?: () => number;
  /** How many unknown keys are remembered at most (UNKNOWN_KEYS_MAX). */
  unknownKeysMax?: number;
}

/** A known key's lookup is re-checked after this long: a known key in use costs one lookup per 5 s. */
const KNOWN_TTL_MS = 5_000;
/** A wrong key tried again within this long costs no lookup (CONTRACT §18). */
const UNKNOWN_TTL_MS = 60_000;
/** About 15 MB of digests (measured): a flood of more distinct wrong keys per minute than this costs lookups again, never memory. */
export const UNKNOWN_KEYS_MAX = 100_000;
/** Expired known entries are swept when the map grows past this, then past twice what remained (only issued keys ever reach it). */
const KNOWN_SWEEP_AT = 10_000;

interface KnownEntry {
  principal: Principal;
  expires: number;
}

export function hashKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

/**
 * Keys are 256-bit random tokens, stored as SHA-256 digests (a fast hash suffices for keys of
 * that entropy) with their first characters as a prefix an administrator recognises them by.
 *
 * Lookups are cached in two places, so that a flood of wrong keys can neither reach the database
 * again and again nor push the known keys out: known keys for 5 s in a map only issued keys can
 * enter, unknown keys for a minute in a bounded LRU of their own. A change (a plan, a revoked
 * key) drops the owner's known entries on this instance at once and, through LISTEN/NOTIFY, on
 * every other instance within milliseconds of its commit (`followChanges`); so does an issued
 * key's digest from the unknown keys (KEY_ISSUED_CHANNEL). The TTLs are the safety net, and a
 * listener that reconnected (and may have missed changes) flushes everything.
 */
export class ApiKeyService {
  private readonly known = new Map<string, KnownEntry>();
  /**
   * Created at the first unknown key: lru-cache allocates its slots up front (two arrays of
   * UNKNOWN_KEYS_MAX), ≈ 25 ms of every start that most processes never need.
   */
  private unknown: LRUCache<string, true> | undefined;
  private readonly unknownKeysMax: number;
  /** Lookups running now: concurrent requests of one key share one. Dropped when a change makes their answer suspect. */
  private readonly pending = new Map<string, Promise<Principal | null>>();
  private readonly ownerListeners = new Set<(ownerId: string | null) => void>();
  private readonly now: () => number;
  private sweepKnownAt = KNOWN_SWEEP_AT;

  constructor(
    private readonly repository: ApiKeyRepository,
    private readonly plans: Map<string, Plan>,
    options: ApiKeyServiceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.unknownKeysMax = options.unknownKeysMax ?? UNKNOWN_KEYS_MAX;
  }

  /** Keeps this instance's caches coherent with changes made by any instance (or the CLI). */
  async followChanges(notifications: NotificationChannel): Promise<void> {
    await notifications.subscribe(KEY_CHANGES_CHANNEL, (ownerId) => this.forgetOwner(ownerId));
    await notifications.subscribe(KEY_ISSUED_CHANNEL, (keyHash) => this.forgetUnknown(keyHash));
    notifications.onReconnect(() => {
      this.known.clear();
      this.unknown?.clear();
      this.pending.clear();
      this.tellOwnerListeners(null);
    });
  }

  /**
   * Calls `listener` after an owner's keys or plan changed (on this instance or, through
   * `followChanges`, on any other), or with null when every owner may have changed (the listener
   * reconnected). Long-lived sessions (WebSocket subscriptions) re-authenticate then.
   */
  onOwnerChange(listener: (ownerId: string | null) => void): () => void {
    this.ownerListeners.add(listener);
    return () => this.ownerListeners.delete(listener);
  }

  planOf(code: string): Plan {
    const plan = this.plans.get(code);
    if (!plan) throw validationError('plan_code', `must be one of ${[...this.plans.keys()].join(', ')}`);
    return plan;
  }

  async authenticate(apiKey: string | undefined): Promise<Principal> {
    if (!apiKey) throw new LedgerError('unauthorized', 'missing api_key header');
    const hash = hashKey(apiKey);
    const principal = await this.principalOf(hash);
    if (!principal) throw new LedgerError('unauthorized', 'unknown api_key');
    return principal;
  }

  private principalOf(hash: string): Principal | null | Promise<Principal | null> {
    const known = this.known.get(hash);
    if (known && known.expires > this.now()) return known.principal;
    if (this.unknown?.has(hash)) return null;
    return this.pending.get(hash) ?? this.lookup(hash);
  }

  private lookup(hash: string): Promise<Principal | null> {
    const running = this.repository.ownerOf(hash).then((owner) => {
      const principal = owner ? { ownerId: owner.ownerId, plan: this.planOf(owner.planCode), subscriptionCode: owner.subscriptionCode } : null;
      // A change that arrived meanwhile dropped this lookup: its answer may be stale, so it is not kept.
      if (this.pending.get(hash) === running) this.remember(hash, principal);
      return principal;
    });
    this.pending.set(hash, running);
    void running.finally(() => {
      if (this.pending.get(hash) === running) this.pending.delete(hash);
    }).catch(() => undefined);
    return running;
  }

  private remember(hash: string, principal: Principal | null): void {
    if (!principal) {
      this.unknown ??= new LRUCache({ max: this.unknownKeysMax, ttl: UNKNOWN_TTL_MS, ttlResolution: 0, perf: { now: this.now } });
      this.unknown.set(hash, true);
      return;
    }
    if (this.known.size >= this.sweepKnownAt) this.sweepKnown();
    this.known.set(hash, { principal, expires: this.now() + KNOWN_TTL_MS });
  }

  private sweepKnown(): void {
    const now = this.now();
    for (const [hash, entry] of this.known) if (entry.expires <= now) this.known.delete(hash);
    this.sweepKnownAt = Math.max(KNOWN_SWEEP_AT, 2 * this.known.size);
  }

  /** Creates a key; the owner is created or moved to `planCode` (the plan belongs to the owner). */
  async issue(owner: string, planCode: string): Promise<IssuedKey> {
    const data = { owner: checkField('owner', OwnerRule, owner), plan_code: this.planOf(planCode).code };
    const apiKey = `lk_${randomBytes(32).toString('base64url')}`;
    const subscription = `SUB_${createHash('sha256').update(data.owner).digest('hex').slice(0, 16).toUpperCase()}`;
    const { id } = await this.repository.insert({
      keyHash: hashKey(apiKey),
      prefix: apiKey.slice(0, PREFIX_LENGTH),
      ownerId: data.owner,
      planCode: data.plan_code,
      subscriptionCode: subscription,
    });
    this.forgetUnknown(hashKey(apiKey));
    this.forgetOwner(data.owner);
    return { api_key: apiKey, id, owner: data.owner, plan_code: data.plan_code };
  }

  /** The owner's live keys, oldest first (never the key nor its digest). */
  async list(owner: string, request: PageRequest): Promise<Page<KeyRecord>> {
    const ownerId = checkField('owner', OwnerRule, owner);
    const { page, limit } = checkInput(PageRules, request);
    return this.repository.listLive(ownerId, limit, offsetOf({ page, limit }));
  }

  /** Revokes a live key: it no longer authenticates nor is listed; the owner's other keys keep working. */
  async revoke(id: string): Promise<{ id: string; revoked: true }> {
    checkField('id', UuidRule, id);
    const revoked = await this.repository.revoke(id);
    if (!revoked) throw notFound('api key', id);
    this.forgetOwner(revoked.ownerId);
    return { id: revoked.id, revoked: true };
  }

  hasAnyKey(): Promise<boolean> {
    return this.repository.hasAnyKey();
  }

  /** Cached lookups of this owner's keys carry the old plan or a revoked key; lookups still running might too. */
  private forgetOwner(ownerId: string): void {
    for (const [hash, entry] of this.known) if (entry.principal.ownerId === ownerId) this.known.delete(hash);
    this.pending.clear();
    this.tellOwnerListeners(ownerId);
  }

  /** A key just issued: a try before its commit must not keep it refused (nor a lookup running across the commit). */
  private forgetUnknown(keyHash: string): void {
    this.unknown?.delete(keyHash);
    this.pending.delete(keyHash);
  }

  private tellOwnerListeners(ownerId: string | null): void {
    for (const listener of this.ownerListeners) listener(ownerId);
  }
}
