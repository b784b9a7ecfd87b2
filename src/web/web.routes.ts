import { LedgerError } from '../domain/errors.js';
import { route, type Reply, type Route } from '../http/route.js';
import { readAsset } from './assets.js';
import { CONSOLE_PAGE, DOCS_PAGE, GRAPHIQL_PAGE } from './pages.js';

const html = (text: string): Reply => ({ status: 200, body: undefined, json: text, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });

/** Pages for browsers (no api_key for the pages themselves: what they show comes from the API). */
export function webRoutes(): Route[] {
  return [
    // Only a browser asking for HTML gets the IDE; API clients keep GET /graphql queries.
    route({ method: 'GET', path: '/graphql', auth: 'none', html: true, handler: async () => html(GRAPHIQL_PAGE) }),
    route({ method: 'GET', path: '/docs', auth: 'none', handler: async () => html(DOCS_PAGE) }),
    route({ method: 'GET', path: '/console', auth: 'none', handler: async () => html(CONSOLE_PAGE) }),
    route<undefined, undefined, { name: string }>({
      method: 'GET',
      path: '/static/{name}',
      auth: 'none',
      handler: async ({ params }) => {
        const asset = readAsset(params.name);
        if (!asset) throw new LedgerError('not_found', 'asset not found');
        return { status: 200, body: undefined, json: asset.text, headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=3600' } };
      },
    }),
  ];
}
