// GraphiQL for /graphql, offline: React, GraphiQL and the graphql-ws client are served by the
// service. Queries and mutations go over HTTP with the headers typed in the Headers tab (the
// api_key header is there, ready to fill in); subscriptions go over WebSocket on the same path,
// with the api_key sent in connection_init as the contract asks.
const url = new URL('/graphql', location.href).toString();
const wsUrl = url.replace(/^http/, 'ws');
let apiKey = '';
const wsClient = graphqlWs.createClient({ url: wsUrl, lazy: true, connectionParams: () => ({ api_key: apiKey }) });
const httpFetcher = GraphiQL.createFetcher({ url, wsClient });
const fetcher = (params, options) => {
  apiKey = (options && options.headers && options.headers.api_key) || '';
  return httpFetcher(params, options);
};
const root = ReactDOM.createRoot(document.getElementById('graphiql'));
root.render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultEditorToolsVisibility: 'headers',
    defaultHeaders: JSON.stringify({ api_key: '' }, null, 2),
    defaultQuery: '# Paste your api_key in the Headers tab below, then run:\n{\n  plan { planCode }\n  projects(first: 5) { totalCount edges { node { id name } } }\n}\n',
    shouldPersistHeaders: false,
  }),
);
