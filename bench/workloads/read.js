// `read` workload: POST /graphql with one nested query
// (project -> its first 100 wallets -> balances + 5 most recent transactions each).
//
// READ_SHAPE is the single place that names the GraphQL fields. The query text below is
// generated from it, and the baseline (bench/baseline/read.js) builds the keys of its one
// SQL query's JSON from the very same constant, so the two answers have the same shape.
// Keys are what the value means (what the baseline knows how to compute); values are the
// service's GraphQL field names. If the service's schema names a field differently, change
// the value here and both sides follow. The harness compares both answers on identical data
// before the load runs and prints any difference.

import { answerSummary, minorUnits } from './answers.js';

export const READ_SHAPE = {
  /** Root query field and how it selects the project. `{id}` is replaced by the project id literal. */
  root: 'project',
  rootArgs: 'id: {id}',
  project: { id: 'id', name: 'name', wallets: 'wallets' },
  walletsArgs: 'first: {wallets}',
  /** Relay connection: wallets { edges { node { ... } } } */
  wallet: { id: 'id', address: 'address', balances: 'balances', transactions: 'transactions' },
  balance: { currency: 'currency', balance: 'balance' },
  transactionsArgs: 'first: {transactions}',
  transaction: { id: 'id', amount: 'amount', currency: 'currency', from: 'from', to: 'to', date: 'date' },
  edges: 'edges',
  node: 'node',
  /**
   * JSON types of the scalars: the service's Project.id is a GraphQL ID (printed as a string)
   * and its money is the Decimal scalar (major units as a string, e.g. "12.5").
   * 'string' or 'number' each.
   */
  encoding: { projectId: 'string', money: 'string' },
  walletsPerProject: 100,
  transactionsPerWallet: 5,
};

const fill = (template, values) => template.replace(/\{(\w+)\}/g, (_, k) => String(values[k]));

/** The GraphQL document sent to both servers (the project id is an inline literal). */
export function readQuery(projectId, shape = READ_SHAPE) {
  const { edges, node } = shape;
  const args = { id: projectId, wallets: shape.walletsPerProject, transactions: shape.transactionsPerWallet };
  const tx = Object.values(shape.transaction).join(' ');
  const balance = Object.values(shape.balance).join(' ');
  const w = shape.wallet;
  const p = shape.project;
  return (
    `query BenchNestedRead { ${shape.root}(${fill(shape.rootArgs, args)}) { ${p.id} ${p.name} ` +
    `${p.wallets}(${fill(shape.walletsArgs, args)}) { ${edges} { ${node} { ${w.id} ${w.address} ` +
    `${w.balances} { ${balance} } ` +
    `${w.transactions}(${fill(shape.transactionsArgs, args)}) { ${edges} { ${node} { ${tx} } } } } } } } }`
  );
}

/** The baseline ignores the document's text except for this: the project id literal. */
export function projectIdFromQuery(query) {
  const match = /\(\s*id\s*:\s*"?(\d+)"?\s*\)/.exec(query ?? '');
  return match ? Number(match[1]) : undefined;
}

/** The same question in PostGraphile's naming (amber preset, bench/postgraphile/setup.sql). */
export function postgraphileReadQuery(projectId, shape = READ_SHAPE) {
  return (
    `query BenchNestedRead { projectByRowId(rowId: ${projectId}) { rowId name ` +
    `walletsByProjectId(first: ${shape.walletsPerProject}, orderBy: SEQ_ASC) { nodes { rowId address ` +
    `balancesByWalletId { nodes { amount asset { symbol } } } ` +
    `recentTransactions(first: ${shape.transactionsPerWallet}) { nodes { rowId amount asset { symbol } fromWallet { address } toWallet { address } createdAt } } } } } }`
  );
}

export function readWorkload(fixture) {
  const bodies = {
    default: JSON.stringify({ query: readQuery(fixture.projectId) }),
    postgraphile: JSON.stringify({ query: postgraphileReadQuery(fixture.projectId) }),
  };
  const body = (arm) => bodies[arm] ?? bodies.default;
  return {
    name: 'read',
    description: `POST /graphql nested read: project -> ${READ_SHAPE.walletsPerProject} wallets -> balances + ${READ_SHAPE.transactionsPerWallet} recent transactions`,
    requestsFor: (arm) => [
      {
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json', api_key: fixture.apiKey },
        body: body(arm),
      },
    ],
    sample: (arm) => ({ method: 'POST', path: '/graphql', body: body(arm) }),
    /** Bodies of the pre-load comparison (the same question to every arm). */
    checkBodies: () => body,
    summarize: (json, arm) => readSummary(json, arm, fixture.fractions),
    moves: false,
    graphql: true,
  };
}

function readSummary(json, arm, fractions) {
  if (arm === 'postgraphile') {
    const wallets = json?.data?.projectByRowId?.walletsByProjectId?.nodes;
    return Array.isArray(wallets)
      ? answerSummary(wallets.map((w) => ({
          id: w.rowId,
          balances: w.balancesByWalletId.nodes.map((b) => BigInt(b.amount)),
          transactions: w.recentTransactions.nodes.map((t) => ({ id: t.rowId, amount: BigInt(t.amount) })),
        })))
      : undefined;
  }
  const { project: P, wallet: W, balance: B, transaction: T, edges, node } = READ_SHAPE;
  const wallets = json?.data?.[READ_SHAPE.root]?.[P.wallets]?.[edges];
  return Array.isArray(wallets)
    ? answerSummary(wallets.map(({ [node]: w }) => ({
        id: w[W.id],
        balances: w[W.balances].map((b) => minorUnits(b[B.balance], fractions)),
        transactions: w[W.transactions][edges].map(({ [node]: t }) => ({ id: t[T.id], amount: minorUnits(t[T.amount], fractions) })),
      })))
    : undefined;
}

/** A GraphQL answer with errors counts as an error even when the status is 200. */
export function readAnswerProblem(json) {
  if (!json || typeof json !== 'object') return 'not JSON';
  if (json.errors) return `errors: ${JSON.stringify(json.errors).slice(0, 300)}`;
  const project = json.data?.[READ_SHAPE.root];
  if (!project) return 'data.project missing';
  const edges = project[READ_SHAPE.project.wallets]?.[READ_SHAPE.edges];
  if (!Array.isArray(edges)) return 'wallets edges missing';
  return undefined;
}
