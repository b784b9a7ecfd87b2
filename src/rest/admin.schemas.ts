import { z } from 'zod';
import { IssueKeyRules, OwnerRule } from '../domain/auth/api-key.rules.js';
import { PaginationBody } from '../json/page.json.js';
import { KeyBody } from '../json/api-key.json.js';
import { PageQuery, Uuid } from './schemas.js';

export const IssueKeyBody = IssueKeyRules.meta({ id: 'IssueApiKeyRequest' });
export const IssuedKeyBody = z.object({ api_key: z.string(), id: z.string(), owner: z.string(), plan_code: z.string() }).meta({ id: 'IssuedApiKey' });

export const KeyListQuery = z.strictObject({ owner: OwnerRule, ...PageQuery });
export const KeyIdParams = z.strictObject({ id: Uuid });

export const KeyListBody = z.object({ keys: z.array(KeyBody), pagination: PaginationBody }).meta({ id: 'ApiKeyList' });
export const KeyRevokedBody = z.object({ id: z.string(), revoked: z.literal(true) });

