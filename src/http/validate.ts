import type { z } from 'zod';
import { validationErrors } from '../domain/errors.js';

/** One schema per input; every issue becomes a named field in `details`. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, prefix: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationErrors(
    result.error.issues.map((issue) => {
      const keys = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
      const path = [...issue.path.map(String), ...(keys.length === 1 ? keys : [])];
      const field = path.length ? path.join('.') : prefix;
      const problem = keys.length > 1 ? `unknown fields: ${keys.join(', ')}` : keys.length === 1 ? 'unknown field' : issue.message;
      return { field, problem };
    }),
  );
}
