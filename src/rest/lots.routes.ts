import { z } from 'zod';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { LotBody, lotJson } from '../json/lot.json.js';
import { Symbol, Uuid } from './schemas.js';

const LotsParams = z.strictObject({ id: Uuid });
const LotsQuery = z.strictObject({ currency: Symbol.optional() });

/** Points that expire (CONTRACT §15). */
export function lotRoutes({ lots }: Services): Route[] {
  return [
    route({
      method: 'GET',
      path: '/wallets/{id}/lots',
      auth: 'api_key',
      params: LotsParams,
      query: LotsQuery,
      doc: {
        operationId: 'listWalletLots',
        summary: "A wallet's unexpired lots with something left in one currency (default: the project's primary), earliest expiry first; a system wallet has none",
        tag: 'wallets',
        response: { status: 200, schema: z.object({ lots: z.array(LotBody) }) },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params, query }) => ({ status: 200, body: { lots: (await lots.lotsOf(principal, params.id, query.currency)).map(lotJson) } }),
    }),
  ];
}
