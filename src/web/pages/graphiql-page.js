// GraphiQL for /graphql, offline: React, GraphiQL and the graphql-ws client are served by the
// service. Queries and mutations go over HTTP with the headers typed in the Headers tab (the
// api_key header is there, ready to fill in); subscriptions go over WebSocket on the same path,
// with that api_key sent in connection_init as the contract asks (a new connection when it changes).
const url = new URL('/graphql', location.href).toString();
const wsUrl = url.replace(/^http/, 'ws');
const fetchers = { key: null, fetcher: null, wsClient: null };

function fetcherFor(apiKey) {
  if (fetchers.key !== apiKey || !fetchers.fetcher) {
    fetchers.wsClient?.dispose();
    const wsClient = graphqlWs.createClient({ url: wsUrl, lazy: true, connectionParams: { api_key: apiKey } });
    Object.assign(fetchers, { key: apiKey, wsClient, fetcher: GraphiQL.createFetcher({ url, wsClient }) });
  }
  return fetchers.fetcher;
}

// GraphiQL tells a subscription from the editor's parsed document, which lags behind the text for
// a moment after an edit (a subscription run at once would go over HTTP and be refused): the
// operation is judged here from the text itself.
const isSubscription = (query) => /(^|\})\s*subscription\b/.test(String(query || '').replace(/#[^\n]*/g, ''));

const fetcher = (params, options) => {
  const http = fetcherFor((options && options.headers && options.headers.api_key) || '');
  if (!isSubscription(params.query)) return http(params, options);
  return fetchers.wsClient.iterate({ query: params.query, variables: params.variables ?? undefined, operationName: params.operationName ?? undefined });
};
const root = ReactDOM.createRoot(document.getElementById('graphiql'));
root.render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultEditorToolsVisibility: 'headers',
    defaultHeaders: JSON.stringify({ api_key: '' }, null, 2),
    defaultQuery: '# Paste your api_key in the Headers tab below, then run:\n{\n  plan { planCode }\n  projects(first: 5) { totalCount edges { node { id name } } }\n}\n\n# Live: subscription { walletChanged(walletId: "…") { id balances { currency balance } } }\n',
    shouldPersistHeaders: false,
  }),
);
