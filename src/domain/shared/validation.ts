import type { z } from 'zod';
import { validationErrors } from '../errors.js';

/**
 * One schema per input; every issue becomes a named field in `details`. `field` names the input
 * itself; with `nested`, it also prefixes the fields inside it (`values.amount`), otherwise they
 * are named on their own (`amount`, as REST bodies are).
 */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown, field: string, { nested = false } = {}): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // A problem inside a list's element (a batch leg, `transfers.3.amount`) also names the element: details.index.
  const first = result.error.issues[0]?.path ?? [];
  const index = typeof first[1] === 'number' ? { index: first[1] } : {};
  const error = validationErrors(
    result.error.issues.map((issue) => {
      const keys = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys : [];
      const path = [...issue.path.map(String), ...(keys.length === 1 ? keys : [])];
      const named = nested ? [field, ...path] : path.length ? path : [field];
      const problem = keys.length > 1 ? `unknown fields: ${keys.join(', ')}` : keys.length === 1 ? 'unknown field' : issue.message;
      return { field: named.join('.'), problem };
    }),
  );
  Object.assign(error.details, index);
  throw error;
}

/**
 * Services re-check their input with the same zod rules the REST schemas are built from, so a
 * GraphQL (or any other) caller meets exactly the REST rules. Field names are the domain's.
 */
export function checkInput<T>(schema: z.ZodType<T>, input: unknown): T {
  return parseInput(schema, input, 'input');
}

/** One scalar argument (an id, a type), reported under its own name. */
export function checkField<T>(field: string, schema: z.ZodType<T>, value: unknown): T {
  return parseInput(schema, value, field);
}
