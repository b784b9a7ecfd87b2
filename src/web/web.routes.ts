import { LedgerError } from '../domain/errors.js';
import { route, type Reply, type Route } from '../http/route.js';
import { consoleAssets, readAsset, type Asset } from './assets.js';
import { consolePage, docsPage, graphiqlPage } from './pages.js';
import { newNonce, pageHeaders } from './security-headers.js';

/** A page with a fresh nonce in its HTML and its Content-Security-Policy (never cached: the nonce is per response). */
const html = (render: (nonce: string) => string): Reply => {
  const nonce = newNonce();
  return { status: 200, body: undefined, json: render(nonce), headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...pageHeaders(nonce) } };
};

/** Pages for browsers (no api_key for the pages themselves: what they show comes from the API). */
export function webRoutes(): Route[] {
  return [
    // Only a browser asking for HTML gets the IDE; API clients keep GET /graphql queries.
    route({ method: 'GET', path: '/graphql', auth: 'none', html: true, handler: async () => html(graphiqlPage) }),
    route({ method: 'GET', path: '/docs', auth: 'none', handler: async () => html(docsPage) }),
    route({ method: 'GET', path: '/console', auth: 'none', handler: async () => html(consolePage) }),
    staticRoute('/static/{name}', readAsset),
    // the console's modules import each other by file name (`./api.js`): served under one folder, those resolve here
    staticRoute('/static/console/{name}', (name) => consoleAssets.read(name)),
  ];
}

function staticRoute(path: string, read: (name: string) => Asset | undefined): Route {
  return route<undefined, undefined, { name: string }>({
    method: 'GET',
    path,
    auth: 'none',
    handler: async ({ params }) => {
      const asset = read(params.name);
      if (!asset) throw new LedgerError('not_found', 'asset not found');
      return { status: 200, body: undefined, json: asset.body, headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=3600' } };
    },
  });
}
