import type { Principal } from '../domain/auth/api-key.service.js';
import type { Services } from '../services.js';

/** Per-request DataLoaders, one per relation; filled in by the GraphQL issue. */
export interface Loaders {}

export function createLoaders(_principal: Principal, _services: Services): Loaders {
  return {};
}
