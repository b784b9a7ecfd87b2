import { z } from 'zod';
import type { KeyRecord } from '../domain/auth/api-key.repository.js';

/** An API key as key management lists it (CONTRACT §2): never the key itself. */
export const KeyBody = z
  .object({
    id: z.string(),
    owner: z.string(),
    plan_code: z.string(),
    prefix: z.string().nullable().describe("The key's first 8 characters; null for keys issued before key management existed."),
    created_at: z.string(),
  })
  .meta({ id: 'ApiKey' });

export function keyJson(key: KeyRecord): z.infer<typeof KeyBody> {
  return { id: key.id, owner: key.ownerId, plan_code: key.planCode, prefix: key.prefix, created_at: key.createdAt.toISOString() };
}
