import { z } from 'zod';

/** Field rules of key management (CONTRACT §2, §17), shared by the service, the REST schemas and the CLI. */
export const OwnerRule = z.string().trim().min(1).max(200);
/** The plans of CONTRACT §2 (the plan table, seeded by a migration, is what the service checks). */
export const PlanCodeRule = z.enum(['free', 'starter', 'pro', 'enterprise']);
export const IssueKeyRules = z.strictObject({ owner: OwnerRule, plan_code: PlanCodeRule });

/** How many leading characters of a key identify it in a listing (CONTRACT Clarifications §17). */
export const PREFIX_LENGTH = 8;
