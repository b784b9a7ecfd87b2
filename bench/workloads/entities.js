// `entities` workload: what a federation gateway sends to resolve references: POST /graphql
// `_entities` of 100 Wallet representations (a new random sample of the customers per request),
// each with id, address and balances. PostGraphile answers the same question in its own
// naming: `walletsByIds(ids: [...])`, a STABLE SQL function exposed as a root field
// (bench/postgraphile/setup.sql).

import { READ_SHAPE } from './read.js';
import { answerSummary, minorUnits } from './answers.js';

export const ENTITIES_PER_REQUEST = 100;

const { wallet: W, balance: B } = READ_SHAPE;
export const ENTITIES_QUERY =
  `query BenchEntities($r: [_Any!]!) { _entities(representations: $r) { ... on Wallet { ` +
  `${W.id} ${W.address} ${W.balances} { ${B.currency} ${B.balance} } } } }`;
export const POSTGRAPHILE_ENTITIES_QUERY =
  'query BenchEntities($ids: [UUID]!) { walletsByIds(ids: $ids) { nodes { rowId address balancesByWalletId { nodes { amount asset { symbol } } } } } }';

function sampleIds(customers, count) {
  const picked = new Set();
  while (picked.size < Math.min(count, customers.length)) picked.add(customers[Math.floor(Math.random() * customers.length)].id);
  return [...picked];
}

/** The request body for one arm (the service and the baseline share the federation document). */
export function entitiesBody(arm, ids) {
  if (arm === 'postgraphile') return JSON.stringify({ query: POSTGRAPHILE_ENTITIES_QUERY, variables: { ids } });
  return JSON.stringify({ query: ENTITIES_QUERY, variables: { r: ids.map((id) => ({ __typename: 'Wallet', id })) } });
}

export function entitiesWorkload(fixture) {
  const body = (arm) => entitiesBody(arm, sampleIds(fixture.customers, ENTITIES_PER_REQUEST));
  return {
    name: 'entities',
    description: `POST /graphql _entities: ${ENTITIES_PER_REQUEST} random Wallet representations -> id, address, balances`,
    requestsFor: (arm) => [
      {
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json', api_key: fixture.apiKey },
        setupRequest: (req) => ({ ...req, body: body(arm) }),
      },
    ],
    sample: (arm) => ({ method: 'POST', path: '/graphql', body: body(arm) }),
    /** Bodies of the pre-load comparison: the same 100 ids to every arm. */
    checkBodies: () => {
      const ids = sampleIds(fixture.customers, ENTITIES_PER_REQUEST);
      return (arm) => entitiesBody(arm, ids);
    },
    summarize: (json, arm) => entitiesSummary(json, arm, fixture.fractions),
    moves: false,
    graphql: true,
  };
}

function entitiesSummary(json, arm, fractions) {
  if (arm === 'postgraphile') {
    const wallets = json?.data?.walletsByIds?.nodes;
    return Array.isArray(wallets)
      ? answerSummary(wallets.map((w) => ({ id: w.rowId, balances: w.balancesByWalletId.nodes.map((b) => BigInt(b.amount)) })))
      : undefined;
  }
  const wallets = json?.data?._entities;
  return Array.isArray(wallets)
    ? answerSummary(wallets.map((w) => ({ id: w[W.id], balances: w[W.balances].map((b) => minorUnits(b[B.balance], fractions)) })))
    : undefined;
}
