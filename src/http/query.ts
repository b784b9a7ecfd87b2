import { validationError } from '../domain/errors.js';

/**
 * A request's query string, one value per name. A name given more than once is a
 * validation_error on every route, whether its values differ or not (CONTRACT §24 clarification):
 * reading the last (or the first) would let `?dryRun=true&dryRun=false` post for real while a
 * proxy, a log or the client's own code reads it as a dry run. Checked here, where every route's
 * query is read, so no route can forget it, a route without declared parameters included.
 */
export function readQuery(params: URLSearchParams): Record<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of params) {
    if (values.has(name)) throw validationError(name, 'is given more than once (each query parameter at most once)');
    // no route has this parameter, and a schema that copies unknown names (the search's metadata.<key>)
    // would set its object's prototype with it instead of seeing an unknown name (found by the fuzz run)
    if (name === '__proto__') throw validationError(name, 'is not a query parameter of any route');
    values.set(name, value);
  }
  // fromEntries defines own properties: a parameter named __proto__ stays a parameter
  return Object.fromEntries(values);
}
