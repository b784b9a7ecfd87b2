import { z } from 'zod';
import { route, type Route } from '../http/route.js';
import { EventBody, eventJson } from '../json/event.json.js';
import type { Services } from '../services.js';
import { ProjectIdQuery, afterSeq, queryInt } from './schemas.js';

const EventListQuery = z.strictObject({
  projectId: ProjectIdQuery,
  after: afterSeq('events'),
  limit: queryInt(1, 100).default(20),
});


export function eventRoutes({ events }: Services): Route[] {
  return [
    route({
      method: 'GET',
      path: '/events',
      auth: 'api_key',
      query: EventListQuery,
      doc: {
        operationId: 'listEvents',
        summary: "A project's events (the outbox), oldest first after `after`",
        tag: 'events',
        response: {
          status: 200,
          schema: z.object({
            events: z.array(EventBody),
            pagination: z.object({ limit: z.number().int(), after: z.number().int(), nextAfter: z.number().int(), hasMore: z.boolean() }),
          }),
        },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query }) => {
        const page = await events.list(principal, query);
        return {
          status: 200,
          body: { events: page.events.map(eventJson), pagination: { limit: query.limit, after: Number(page.after), nextAfter: Number(page.nextAfter), hasMore: page.hasMore } },
        };
      },
    }),
  ];
}
