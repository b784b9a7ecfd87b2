/** The HTML pages a browser gets: GraphiQL on GET /graphql, the REST reference on /docs. */

const page = (title: string, head: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${head}
</head>
<body>
${body}
</body>
</html>
`;

export const GRAPHIQL_PAGE = page(
  'Ledger GraphQL',
  `<link rel="stylesheet" href="/static/graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>`,
  `<div id="graphiql">Loading GraphiQL…</div>
<script src="/static/react.js"></script>
<script src="/static/react-dom.js"></script>
<script src="/static/graphiql.js"></script>
<script src="/static/graphql-ws.js"></script>
<script src="/static/graphiql-page.js"></script>`,
);

// Scalar loads its fonts from its CDN and its agent searches a registry through its proxy unless
// told not to: this page must make no request to another origin (CONTRACT §17).
const SCALAR_CONFIGURATION = JSON.stringify({ withDefaultFonts: false, hideClientButton: true, agent: { disabled: true } });

export const DOCS_PAGE = page(
  'Ledger REST API reference',
  '',
  `<script id="api-reference" data-url="/openapi.json" data-configuration='${SCALAR_CONFIGURATION}'></script>
<script src="/static/scalar.js"></script>`,
);

export const CONSOLE_PAGE = page(
  'Ledger console',
  `<link rel="stylesheet" href="/static/console.css">`,
  `<div id="console"><noscript>The console needs JavaScript.</noscript></div>
<script src="/static/graphql-ws.js"></script>
<script type="module" src="/static/console.js"></script>`,
);
