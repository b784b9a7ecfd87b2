import { z } from 'zod';
import type { KeyRecord } from '../domain/auth/api-key.repository.js';
import { IssueKeyRules, OwnerRule } from '../domain/auth/api-key.rules.js';
import { PageQuery, PaginationBody, Uuid } from './schemas.js';

export const IssueKeyBody = IssueKeyRules.meta({ id: 'IssueApiKeyRequest' });
export const IssuedKeyBody = z.object({ api_key: z.string(), id: z.string(), owner: z.string(), plan_code: z.string() }).meta({ id: 'IssuedApiKey' });

export const KeyListQuery = z.strictObject({ owner: OwnerRule, ...PageQuery });
export const KeyIdParams = z.strictObject({ id: Uuid });

export const KeyBody = z
  .object({
    id: z.string(),
    owner: z.string(),
    plan_code: z.string(),
    prefix: z.string().nullable().describe("The key's first 8 characters; null for keys issued before key management existed."),
    created_at: z.string(),
  })
  .meta({ id: 'ApiKey' });
export const KeyListBody = z.object({ keys: z.array(KeyBody), pagination: PaginationBody }).meta({ id: 'ApiKeyList' });
export const KeyRevokedBody = z.object({ id: z.string(), revoked: z.literal(true) });

export function keyJson(key: KeyRecord): z.infer<typeof KeyBody> {
  return { id: key.id, owner: key.ownerId, plan_code: key.planCode, prefix: key.prefix, created_at: key.createdAt.toISOString() };
}
