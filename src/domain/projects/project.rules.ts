import { z } from 'zod';
import { UuidRule } from '../shared/ids.js';

/** Field rules of a project (CONTRACT §3), shared by the service and the REST schemas. */
export const MAX_METADATA_BYTES = 16 * 1024;

export const ProjectNameRule = z.string().trim().min(1, 'must not be empty').max(200);
export const ProjectTypeRule = z.enum(['loyalty']);
export const ExchangeRateRule = z.number().positive();
export const MetadataRule = z
  .record(z.string(), z.unknown())
  .refine((value) => Buffer.byteLength(JSON.stringify(value), 'utf8') <= MAX_METADATA_BYTES, `must be at most ${MAX_METADATA_BYTES} bytes serialised`);

export const CreateProjectRules = z.strictObject({
  name: ProjectNameRule,
  type: ProjectTypeRule.default('loyalty'),
  exchangeRate: ExchangeRateRule.default(1),
  supportExchangeRate: z.boolean().default(false),
  metadata: MetadataRule.default({}),
  /** An asset of another of the caller's projects, shared as this project's primary currency. */
  assetId: UuidRule.nullable().optional(),
});

export const RenameProjectRules = z.strictObject({ name: ProjectNameRule });
