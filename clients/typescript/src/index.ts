import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, operations, paths, webhooks } from './schema.js';
/** The API's named schemas: `Schemas['Transaction']`, `Schemas['TransferRequest']`, the webhook bodies (`Schemas['TransactionPostedWebhook']`). */
export type Schemas = components['schemas'];
export type LedgerClient = Client<paths>;

/**
 * A client of the ledger's REST API that sends `apiKey` with every call. Paths, parameters, bodies
 * and answers are typed from the service's OpenAPI document: `client.POST('/transactions', { body })`
 * answers `{ data }` (the 2xx body) or `{ error }` (the `{code, message, details}` body).
 */
export function createLedgerClient(baseUrl: string, apiKey: string): LedgerClient {
  return createClient<paths>({ baseUrl, headers: { api_key: apiKey } });
}
