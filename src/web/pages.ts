/**
 * The HTML pages a browser gets: GraphiQL on GET /graphql, the REST reference on /docs, the
 * console on /console. No inline script or style: everything is a file served by the service, as
 * the pages' Content-Security-Policy requires (security-headers.ts); `nonce` is the response's.
 */
const page = (nonce: string, title: string, head: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<script src="/static/csp-shim.js" nonce="${nonce}"></script>
${head}
</head>
<body>
${body}
</body>
</html>
`;

export const graphiqlPage = (nonce: string): string =>
  page(
    nonce,
    'Ledger GraphQL',
    `<link rel="stylesheet" href="/static/graphiql.css">
<link rel="stylesheet" href="/static/graphiql-page.css">`,
    `<div id="graphiql">Loading GraphiQL…</div>
<script src="/static/react.js"></script>
<script src="/static/react-dom.js"></script>
<script src="/static/graphiql.js"></script>
<script src="/static/graphql-ws.js"></script>
<script src="/static/graphiql-page.js"></script>`,
  );

export const docsPage = (nonce: string): string =>
  page(
    nonce,
    'Ledger REST API reference',
    '',
    `<div id="reference"></div>
<script src="/static/scalar.js"></script>
<script src="/static/docs-page.js"></script>`,
  );

export const consolePage = (nonce: string): string =>
  page(
    nonce,
    'Ledger console',
    `<meta name="color-scheme" content="light dark">
<link rel="icon" href="/static/console/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/console/console.css">
<link rel="modulepreload" href="/static/console/api.js">
<link rel="modulepreload" href="/static/console/dom.js">`,
    `<div id="console"><noscript>The console needs JavaScript.</noscript></div>
<script src="/static/graphql-ws.js"></script>
<script type="module" src="/static/console/console.js"></script>`,
  );
