import { z } from 'zod';
import { LedgerError } from '../errors.js';
import { ProjectIdRule } from '../shared/ids.js';
import { EVENT_TYPES } from './webhook-endpoint.types.js';

/** Syntax only; where the URL may point is the UrlGuard's business (it needs DNS). */
export const WebhookUrlRule = z.string().min(1).max(2048);

/** At least one of the seven types; a repeated type counts once. */
export const EventTypesRule = z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length);

export const CreateEndpointRules = z.object({ projectId: ProjectIdRule, url: WebhookUrlRule, types: EventTypesRule.nullish() });

/** Endpoints one project may have (CONTRACT §18): what one project can ask the delivery worker for is bounded. */
export const MAX_ENDPOINTS_PER_PROJECT = 20;

export const endpointQuotaExceeded = (): LedgerError =>
  new LedgerError('quota_exceeded', `a project has at most ${MAX_ENDPOINTS_PER_PROJECT} webhook endpoints`, { quota: 'webhook_endpoints', limit: MAX_ENDPOINTS_PER_PROJECT });
