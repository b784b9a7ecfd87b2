import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRepository } from './api-key.repository.js';
import { LedgerError, validationError } from '../errors.js';
import type { Plan } from './plans.js';

export interface Principal {
  ownerId: string;
  plan: Plan;
  subscriptionCode: string;
}

export interface IssuedKey {
  api_key: string;
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
 * that entropy). Lookups are cached for a few seconds, so the hot path needs no database
 * round trip; issuing a key on this instance drops the owner's cached entries at once.
 */
export class ApiKeyService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly repository: ApiKeyRepository,
    private readonly plans: Map<string, Plan>,
  ) {}

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
    this.planOf(planCode);
    const apiKey = `lk_${randomBytes(32).toString('base64url')}`;
    const subscription = `SUB_${createHash('sha256').update(owner).digest('hex').slice(0, 16).toUpperCase()}`;
    await this.repository.insert({ keyHash: hashKey(apiKey), ownerId: owner, planCode, subscriptionCode: subscription });
    // Cached lookups of this owner's keys carry the old plan; lookups still running might too.
    for (const [hash, entry] of this.cache) if (entry.resolved === undefined || entry.resolved?.ownerId === owner) this.cache.delete(hash);
    return { api_key: apiKey, owner, plan_code: planCode };
  }

  hasAnyKey(): Promise<boolean> {
    return this.repository.hasAnyKey();
  }
}
