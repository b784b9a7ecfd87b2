import { z } from 'zod';

/** Identifier rules shared by every feature: project ids are int4 serials, the rest UUIDs (CONTRACT §3). */
export const MAX_PROJECT_ID = 2_147_483_647;
export const ProjectIdRule = z.number().int().min(1).max(MAX_PROJECT_ID);
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const UuidRule = z.string().regex(UUID_PATTERN, 'must be a UUID');
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
