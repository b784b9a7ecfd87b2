import { createHash, randomBytes } from 'node:crypto';
import type { NotificationChannel } from '../../db/notifications.js';
import { KEY_CHANGES_CHANNEL, type ApiKeyRepository, type KeyRecord } from './api-key.repository.js';
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

const CACHE_TTL_MS = 5_000;

interface CacheEntry {
  principal: Promise<Principal | null>;
  /** Set once the lookup has answered. */
  resolved?: Principal | null;
  expires: number;
}

export function hashKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

/**
 * Keys are 256-bit random tokens, stored as SHA-256 digests (a fast hash suffices for keys of
 * that entropy) with their first characters as a prefix an administrator recognises them by.
 * Lookups are cached, so the hot path needs no database round trip. A change (a plan, a revoked
 * key) drops the owner's cached entries on this instance at once and, through LISTEN/NOTIFY, on
 * every other instance within milliseconds of its commit (`followChanges`); the TTL is the
 * safety net, and a listener that reconnected (and may have missed changes) flushes everything.
 */
export class ApiKeyService {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly ownerListeners = new Set<(ownerId: string | null) => void>();

  constructor(
    private readonly repository: ApiKeyRepository,
    private readonly plans: Map<string, Plan>,
  ) {}

  /** Keeps this instance's cache coherent with changes made by any instance (or the CLI). */
  async followChanges(notifications: NotificationChannel): Promise<void> {
    await notifications.subscribe(KEY_CHANGES_CHANNEL, (ownerId) => this.forgetOwner(ownerId));
    notifications.onReconnect(() => {
      this.cache.clear();
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
    const now = Date.now();
    let entry = this.cache.get(hash);
    if (!entry || entry.expires < now) {
      // The promise is cached, so concurrent requests of an expired key share one lookup.
      const fresh: CacheEntry = { principal: this.lookup(hash), expires: now + CACHE_TTL_MS };
      fresh.principal.then((p) => (fresh.resolved = p), () => this.cache.delete(hash));
      if (this.cache.size > 100_000) this.cache.clear();
      this.cache.set(hash, fresh);
      entry = fresh;
    }
    const principal = await entry.principal;
    if (!principal) throw new LedgerError('unauthorized', 'unknown api_key');
    return principal;
  }

  private async lookup(hash: string): Promise<Principal | null> {
    const owner = await this.repository.ownerOf(hash);
    return owner ? { ownerId: owner.ownerId, plan: this.planOf(owner.planCode), subscriptionCode: owner.subscriptionCode } : null;
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
    for (const [hash, entry] of this.cache) if (entry.resolved === undefined || entry.resolved?.ownerId === ownerId) this.cache.delete(hash);
    this.tellOwnerListeners(ownerId);
  }

  private tellOwnerListeners(ownerId: string | null): void {
    for (const listener of this.ownerListeners) listener(ownerId);
  }
}
