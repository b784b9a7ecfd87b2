/**
 * The layering of src/ (docs/decisions.md, "Layers and the dependency rule"), checked by
 * test/architecture.test.ts on every `npm test`. From the bottom:
 *
 *   db/                    the database (connection, routines, entities): imports nothing above it
 *   domain/                the rules, over db/
 *   observability/         metrics and tracing of the domain's work
 *   json/                  the contract's JSON shapes, printed alike by REST, GraphQL, events, webhooks
 *   http/                  the HTTP kernel: router, route declaration, body parsing, server, /metrics
 *   services.ts, config.ts the wiring of the domain services and the settings
 *   rest/ graphql/ web/    the adapters: each translates one transport, none imports another
 *   web/console/           the browser's adapter: the console's modules, served as they are; they import
 *                          only each other (the service is reached over HTTP) and nothing imports them
 *   app.ts start.ts main.ts cli/   entry points: they compose the rest and nothing imports them
 *
 * logger.ts is a leaf every layer may use.
 */
/**
 * The floors inside src/domain/ (docs/decisions/domain-floors.md), from the ground up. A feature
 * may import its own files and any floor below its own, never a floor above, and never another
 * feature of its own floor (features side by side share what is below them). The ground floor is
 * the toolkit every feature uses: shared/ (ids, paging, time, validation), money.ts, errors.ts.
 */
const DOMAIN_FLOORS = [
  ['outbox', 'idempotency'], // the outbox write and event numbering; idempotency records
  ['auth'], // keys, owners, plans
  ['ownership'], // which owner may read or write which project
  ['projects', 'assets', 'wallets'], // what money moves between
  ['ledger'], // the posting path, its refusals (limits' included), history
  ['holds', 'lots', 'limits', 'credit-lines', 'monitors', 'search', 'journal', 'analytics', 'webhook', 'wallet-groups'], // features over the ledger
  ['events'], // the feed, the hub and the subjects of events, read from every feature
  ['webhook-endpoints'], // outbound deliveries, which follow the events
];
const GROUND = '^src/domain/(shared/|money[.]ts$|errors[.]ts$)';
const folders = (names) => `^src/domain/(${names.join('|')})/`;

/** One rule per floor: its features import nothing above it. */
const floorRules = DOMAIN_FLOORS.slice(0, -1).map((features, i) => ({
  name: `domain-floor-${i + 1}-${features[0]}`,
  comment: `src/domain/{${features.join(',')}} is floor ${i + 1} of the domain: it may not import a feature of a floor above it (${DOMAIN_FLOORS.slice(i + 1).flat().join(', ')}).`,
  severity: 'error',
  from: { path: folders(features) },
  to: { path: folders(DOMAIN_FLOORS.slice(i + 1).flat()) },
}));
const groundRule = {
  name: 'domain-ground-floor',
  comment: 'shared/, money.ts and errors.ts are the ground floor of the domain: they import no feature.',
  severity: 'error',
  from: { path: GROUND },
  to: { path: folders(DOMAIN_FLOORS.flat()) },
};
/** Features of one floor side by side: none imports another (what they share goes below them). */
const sidewaysRules = DOMAIN_FLOORS.filter((features) => features.length > 1).map((features) => ({
  name: `domain-no-sideways-${features[0]}`,
  comment: `The features {${features.join(',')}} share a floor: none imports another; what they share goes to a floor below.`,
  severity: 'error',
  from: { path: folders(features) },
  to: { path: folders(features), pathNot: '^src/domain/$1/' },
}));

const ADAPTERS = '^src/(rest|graphql|web/console|web)/';
const CONSOLE = '^src/web/console/';
const ENTRY = '^src/(app|start|main)[.]ts$|^src/cli/';

/** `name` may not import any of `targets` (paths under src/). */
const forbid = (name, comment, from, targets) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: `^src/(${targets.join('|')})` },
});

module.exports = {
  forbidden: [
    ...floorRules,
    groundRule,
    ...sidewaysRules,
    { name: 'no-cycle', comment: 'An import cycle: the modules on it cannot be read, tested or loaded one without the others.', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
    forbid('db-at-the-bottom', 'db/ is the lowest layer: it may not import the domain or anything above it.', '^src/db/', [
      'domain/', 'observability/', 'json/', 'http/', 'rest/', 'graphql/', 'web/', 'cli/', 'services[.]ts', 'config[.]ts', 'app[.]ts', 'start[.]ts', 'main[.]ts',
    ]),
    forbid('domain-below-adapters', 'The rules live in domain/ and import no transport, presentation or wiring (decisions.md: the journal hashes the transaction JSON, so that one shape lives in the domain).', '^src/domain/', [
      'observability/', 'json/', 'http/', 'rest/', 'graphql/', 'web/', 'cli/', 'services[.]ts', 'config[.]ts', 'app[.]ts', 'start[.]ts', 'main[.]ts',
    ]),
    forbid('observability-below-http', 'Metrics and tracing observe the domain; the HTTP kernel and the services use them, not the other way round.', '^src/observability/', [
      'json/', 'http/', 'rest/', 'graphql/', 'web/', 'cli/', 'services[.]ts', 'config[.]ts', 'app[.]ts', 'start[.]ts', 'main[.]ts',
    ]),
    forbid('json-below-adapters', 'The contract JSON shapes sit below every transport that prints them.', '^src/json/', [
      'observability/', 'http/', 'rest/', 'graphql/', 'web/', 'cli/', 'services[.]ts', 'config[.]ts', 'app[.]ts', 'start[.]ts', 'main[.]ts',
    ]),
    forbid('http-below-adapters', 'The HTTP kernel serves REST, GraphQL and the web pages alike and knows none of them.', '^src/http/', [
      'json/', 'rest/', 'graphql/', 'web/', 'cli/', 'services[.]ts', 'config[.]ts', 'app[.]ts', 'start[.]ts', 'main[.]ts',
    ]),
    forbid('wiring-below-adapters', 'services.ts and config.ts are used by the adapters and entry points, and use neither.', '^src/(services|config)[.]ts$', [
      'http/', 'rest/', 'graphql/', 'web/', 'cli/', 'app[.]ts', 'start[.]ts', 'main[.]ts',
    ]),
    {
      name: 'config-owns-its-defaults',
      comment: 'config.ts owns every default: of the domain it may use only rules (settings checked against the contract), not a running part or its constants.',
      severity: 'error',
      from: { path: '^src/config[.]ts$' },
      to: { path: '^src/', pathNot: '^src/domain/.+([.]rules|/backoff)[.]ts$' },
    },
    { name: 'logger-is-a-leaf', comment: 'Every layer logs: logger.ts imports nothing of src/.', severity: 'error', from: { path: '^src/logger[.]ts$' }, to: { path: '^src/' } },
    {
      name: 'adapters-independent',
      comment: 'One adapter per transport, none importing another: what two share goes below them (json/, http/, services.ts, domain/).',
      severity: 'error',
      from: { path: `${ADAPTERS}` },
      to: { path: ADAPTERS, pathNot: '^src/$1/' },
    },
    {
      name: 'console-imports-only-itself',
      comment: 'The web console runs in the browser and talks to the service over HTTP: it imports its own files, never a module of the service or a package (the browser could load neither).',
      severity: 'error',
      from: { path: `${CONSOLE}.+[.]js$` },
      to: { pathNot: CONSOLE },
    },
    {
      name: 'console-types-from-the-contract',
      comment: "The console's types (its .d.ts, never served: types only) describe what it reads: the REST answers from the OpenAPI client's schema, graphql-ws's client. No other type comes from outside its folder.",
      severity: 'error',
      from: { path: `${CONSOLE}.+[.]d[.]ts$` },
      to: { pathNot: `${CONSOLE}|^clients/typescript/src/schema[.]d[.]ts$|node_modules/graphql-ws/` },
    },
    {
      name: 'console-imports-resolve',
      comment: "Each console import names a file of its folder (./api.js), which the browser loads from /static/console/ beside the importer: one that names no file fails in the browser.",
      severity: 'error',
      from: { path: CONSOLE },
      to: { couldNotResolve: true },
    },
    {
      name: 'console-not-imported',
      comment: 'The console is the browser\'s code: no module of the service imports it (src/web/assets.ts serves its folder by file name).',
      severity: 'error',
      from: { path: '^src/', pathNot: CONSOLE },
      to: { path: CONSOLE },
    },
    {
      name: 'entry-points-not-imported',
      comment: 'app.ts, start.ts, main.ts and cli/ compose the service; nothing below imports them.',
      severity: 'error',
      from: { path: '^src/', pathNot: ENTRY },
      to: { path: ENTRY },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API; swc (already here for jest) parses the sources
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    // type-only imports count: a cycle or an upward import of a type is still a design dependency
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
