import type { EventRepository } from '../domain/events/event.repository.js';
import type { EventService } from '../domain/events/event.service.js';
import type { PayloadRenderer } from '../domain/webhook-endpoints/delivery-worker.js';
import { eventData } from './events.routes.js';

/**
 * The outbound webhook body (CONTRACT §16): `{id, type, created_at, data}`, `data` being the
 * resource as REST shows it, the same as `GET /events` carries (one presenter for both).
 */
export function webhookPayloads(repository: EventRepository, events: EventService): PayloadRenderer {
  return async (eventIds) => {
    const views = await events.render(await repository.byIds(eventIds));
    return new Map(views.map((event) => [event.id, { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: eventData(event) }]));
  };
}
