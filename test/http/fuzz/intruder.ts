import fc from 'fast-check';
import type { GraphQLCase } from './graphql-mutations.js';
import { graphqlControlCases } from './graphql-mutations.js';
import type { QueryRoute } from './rest-reads.js';
import { restControlRequests, type FuzzRequest, type FuzzTarget } from './rest-writes.js';

/**
 * Another owner's requests on the target's resources: each route's and each operation's valid
 * request, unbroken but for the key. Any success is a tenancy leak (CONTRACT §2): REST must answer
 * 404, GraphQL not_found or null. Requests that name none of the target's resources (creating a
 * project, listing one's own) are left out; a project of the intruder's own stands in where a
 * request names a project and a target's wallet.
 */
export function intruderRestRequests(target: FuzzTarget, routes: QueryRoute[], ownProjectId: number): FuzzRequest[] {
  const writes = restControlRequests(target).filter((request) => request.endpoint !== 'POST /projects');
  const reads = routes
    .filter((route) => !route.headers && Object.keys(route.query).length + (route.badParams ? 1 : 0) > 0 && route.name !== 'GET /projects' && !route.name.startsWith('GET /webhook-endpoints/') && !route.name.startsWith('DELETE'))
    .map((route): FuzzRequest => ({ endpoint: route.name, breaker: 'other owner', method: route.method, path: `${route.path()}?${new URLSearchParams(route.query).toString()}` }));
  const crossProject: FuzzRequest[] = [
    { endpoint: 'POST /projects', breaker: 'other owner', method: 'POST', path: '/projects', body: { name: 'sharing a foreign asset', asset_id: target.assetId } },
    { endpoint: 'POST /transactions', breaker: 'other owner', method: 'POST', path: '/transactions', body: { amount: 1, currency: target.symbol, from: target.systemId, to: target.customerId, projectId: ownProjectId } },
    { endpoint: 'GET /transactions', breaker: 'other owner', method: 'GET', path: `/transactions?walletId=${target.customerId}&projectId=${ownProjectId}` },
    { endpoint: 'GET /holds', breaker: 'other owner', method: 'GET', path: `/holds?projectId=${ownProjectId}&walletId=${target.customerId}` },
  ];
  return [...writes.map((request) => ({ ...request, breaker: 'other owner' })), ...reads, ...crossProject];
}

export function intruderGraphqlCases(target: FuzzTarget): GraphQLCase[] {
  const pid = String(target.projectId);
  const query = (root: string, call: string): GraphQLCase => ({ mutation: root, breaker: 'other owner', query: `{ ${call} }` });
  const entity = (typename: string, id: string) => ({
    mutation: '_entities',
    breaker: 'other owner',
    query: `query($r: [_Any!]!) { _entities(representations: $r) { __typename } }`,
    variables: { r: [{ __typename: typename, id }] },
  });
  return [
    ...graphqlControlCases(target)
      .filter((c) => c.mutation !== 'createProject')
      .map((c) => ({ ...c, breaker: 'other owner' })),
    query('project', `project(id: "${pid}") { id }`),
    query('asset', `asset(id: "${target.assetId}") { id }`),
    query('assets', `assets(projectId: "${pid}") { totalCount }`),
    query('wallet', `wallet(id: "${target.customerId}") { id }`),
    query('wallets', `wallets(projectId: "${pid}") { totalCount }`),
    query('transactions', `transactions(walletId: "${target.customerId}") { totalCount }`),
    query('hold', `hold(id: "${target.holds.restVoid}") { id }`),
    query('holds', `holds(projectId: "${pid}") { totalCount }`),
    query('events', `events(projectId: "${pid}") { totalCount }`),
    query('webhookEvents', `webhookEvents(projectId: "${pid}") { totalCount }`),
    entity('Project', pid),
    entity('Asset', target.assetId),
    entity('Wallet', target.customerId),
    entity('Transaction', target.transactionId),
    entity('Hold', target.holds.restVoid),
  ];
}

/** `count` draws among the intruder's requests (fixed seed): the class weighs as much as the others in the run. */
export function sampleOf<T>(items: T[], count: number, seed: number): T[] {
  return [...items, ...fc.sample(fc.constantFrom(...items), { numRuns: Math.max(0, count - items.length), seed })];
}
