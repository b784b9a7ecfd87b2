import { z } from 'zod';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { CreditLineBody, creditLineJson } from '../json/credit-line.json.js';
import { Amount, ProjectId, Symbol, Uuid } from './schemas.js';

const SetCreditLineBody = z.strictObject({
  projectId: ProjectId.meta({ description: "The wallet's project" }),
  currency: Symbol,
  limit: z.union([z.literal(0), Amount]).meta({ description: 'How far below zero the wallet may go, in major units; 0 removes the line' }),
});
const WalletIdParams = z.strictObject({ id: Uuid });

/** Credit lines (CONTRACT §28). */
export function creditLineRoutes({ creditLines }: Services): Route[] {
  return [
    route({
      method: 'PUT',
      path: '/wallets/{id}/credit-line',
      auth: 'api_key',
      params: WalletIdParams,
      body: SetCreditLineBody,
      doc: {
        operationId: 'setCreditLine',
        summary:
          'Let the wallet go below zero in one currency, down to −limit (available = balance − held + limit); 0 removes the line. Lowering it below what is used is allowed: the wallet then only receives until available > 0. Not on an asset whose points expire (400); a closed wallet: 409 conflict',
        tag: 'wallets',
        response: { status: 200, schema: CreditLineBody },
        errors: ['validation_error', 'not_found', 'conflict'],
      },
      handler: async ({ principal, params, body }) => ({ status: 200, body: creditLineJson(await creditLines.set(principal, params.id, body)) }),
    }),
  ];
}
