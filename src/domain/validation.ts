import type { z } from 'zod';
import { validationErrors } from './errors.js';

/**
 * One schema per input; every issue becomes a named field in `details`. `field` names the input
 * itself; with `nested`, it also prefixes the fields inside it (`values.amount`), otherwise they
 * are named on their own (`amount`, as REST bodies are).
 */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, field: string, { nested = false } = {}): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationErrors(
    result.error.issues.map((issue) => {
      const keys = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
      const path = [...issue.path.map(String), ...(keys.length === 1 ? keys : [])];
      const named = nested ? [field, ...path] : path.length ? path : [field];
      const problem = keys.length > 1 ? `unknown fields: ${keys.join(', ')}` : keys.length === 1 ? 'unknown field' : issue.message;
      return { field: named.join('.'), problem };
    }),
  );
}
