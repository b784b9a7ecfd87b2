import { SAMPLE } from '../../db/sql-samples.js';

/**
 * Representative reads the SQL plans answer, from which `npm run sql:generate` writes
 * src/queries/graphql.sql-plan.sql (each document's plan is one statement). Variables are fixed,
 * so the plan's text is too. A new root or nested field the planner learns gets a document here.
 */
export const PLAN_SAMPLES: Record<string, { document: string; variables: Record<string, unknown> }> = {
  'project → wallets → balances, transactions (the nested read)': {
    document: `query ($id: ID!) {
      project(id: $id) { id name wallets(first: 20) { totalCount pageInfo { hasNextPage endCursor }
        edges { cursor node { id address type status balances { account currency balance held available }
          transactions(first: 5) { pageInfo { hasNextPage endCursor } edges { node { id amount currency from to date balance reference } } } } } } }
    }`,
    variables: { id: String(SAMPLE.projectId) },
  },
  'project → walletGroups → balances + groups → balances (wallet groups, CONTRACT §29)': {
    document: `query ($id: ID!) {
      project(id: $id) { id walletGroups(first: 20) { totalCount pageInfo { hasNextPage endCursor }
        edges { cursor node { id name createdAt balances { currency balance held available incoming wallets }
          groups { id name balances { currency balance held available incoming wallets } } } } } }
    }`,
    variables: { id: String(SAMPLE.projectId) },
  },
  'wallet → balances, transactions': {
    document: `query ($id: ID!) {
      wallet(id: $id) { id projectId address type status createdAt updatedAt balances { currency assetId balance held available }
        transactions(first: 20) { pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { id amount currency from to date balance } } } }
    }`,
    variables: { id: SAMPLE.id },
  },
  'wallets of a project': {
    document: `query ($projectId: ID!) {
      wallets(projectId: $projectId, first: 20, type: CUSTOMER) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id address balances { currency balance } } } }
    }`,
    variables: { projectId: String(SAMPLE.projectId) },
  },
  '_entities (federation: Wallet representations)': {
    document: `query ($representations: [_Any!]!) {
      _entities(representations: $representations) { ... on Wallet { id address balances { currency balance } transactions(first: 3) { edges { node { id amount } } } } }
    }`,
    variables: { representations: [{ __typename: 'Wallet', id: SAMPLE.id }] },
  },
};
