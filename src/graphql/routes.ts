import { route, type Route } from '../http/route.js';
import type { GraphQLEndpoint } from './apollo.js';
import { isDryRunOnly } from './dry-run-only.js';
import { graphqlRefusal } from './errors.js';

/** /graphql over HTTP: POST (its body read raw, parsed by the endpoint) and GET (queries in the query string). */
export function graphqlRoutes(graphql: GraphQLEndpoint): Route[] {
  const handler: Route['handler'] = ({ req, body, principal, requestId, log }) => graphql.handle(req, body, principal, requestId, log);
  return [
    route({ method: 'POST', path: '/graphql', auth: 'api_key', rawBody: true, refusal: graphqlRefusal, writesNothing: isDryRunOnly, handler }),
    route({ method: 'GET', path: '/graphql', auth: 'api_key', refusal: graphqlRefusal, handler }),
  ];
}
