import { validationError } from '../domain/errors.js';

/**
 * Project ids are integers; GraphQL carries them as `ID` (a string). A value that is not a
 * decimal integer is a validation_error naming the argument; the range is the services' rule.
 */
export function projectIdOf(value: string | number, field = 'projectId'): number {
  const text = String(value);
  if (!/^\d{1,16}$/.test(text)) throw validationError(field, 'must be a positive integer id');
  return Number(text);
}

/** For batch reads (federation references): a malformed id simply resolves to nothing. */
export function projectIdOrNull(value: unknown): number | null {
  return typeof value === 'string' || typeof value === 'number' ? (/^\d{1,16}$/.test(String(value)) ? Number(value) : null) : null;
}
