import 'reflect-metadata';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parse } from 'graphql';
import type { Database } from '../db/database.js';
import { EventRepository } from '../domain/events/event.repository.js';
import { OutboxRepository } from '../domain/outbox/outbox.repository.js';
import { HoldRepository } from '../domain/holds/hold.repository.js';
import { HistoryRepository } from '../domain/ledger/history.repository.js';
import type { PostingLeg } from '../domain/ledger/ledger.types.js';
import { PostingRepository } from '../domain/ledger/posting.repository.js';
import { LotRepository } from '../domain/lots/lot.repository.js';
import { OwnershipRepository } from '../domain/ownership/ownership.repository.js';
import { DEFAULT_LIMITS } from '../graphql/limits/limits.js';
import { planQuery } from '../graphql/sql-plan/planner.js';
import { buildLedgerSchema } from '../graphql/schema.js';

/**
 * The final SQL text of the main statements, committed as src/queries/*.sql so that a reviewer
 * sees SQL change in a diff (as Immich does with its sql-generator). Each file lists what one
 * module sends, statement by statement, captured by calling the module against a database
 * stand-in that records each statement instead of running it: no database, so the output
 * depends on the code alone. `npm run sql:generate` writes the files; the drift test
 * (test/cli/sql-generator.test.ts) fails when they and the code differ.
 */

/** One file: its name in src/queries, the module it lists, and the calls that make its statements. */
interface QueryFile {
  name: string;
  source: string;
  calls: Record<string, (db: Database, tx: EntityManager) => Promise<unknown>>;
}

/** A statement as captured: its text, and the name it is prepared under, if any. */
interface Captured {
  sql: string;
  name?: string;
}

const OWNER = 'owner';
const UUID = '00000000-0000-4000-8000-000000000000';
const AT = new Date('2026-01-01T00:00:00.000Z');
const TRANSFER: PostingLeg = { kind: 'transfer', projectId: 1, assetId: UUID, fromWalletId: UUID, toWalletId: UUID, amount: 1n, requestKey: null };
const CALL = { ownerId: OWNER, flowId: 'reward', values: {}, message: 'rewarded' };

const FILES: QueryFile[] = [
  {
    name: 'posting.repository.sql',
    source: 'src/domain/ledger/posting.repository.ts',
    calls: {
      'PostingRepository.resolvePosting': (db) => new PostingRepository(db).resolvePosting(OWNER, 1, 'PTS', 'alice', UUID),
      'PostingRepository.post': (db) => new PostingRepository(db).post([TRANSFER]),
      'PostingRepository.post (with a webhook call)': (db) => new PostingRepository(db).post([{ ...TRANSFER, call: CALL }]),
    },
  },
  {
    name: 'history.repository.sql',
    source: 'src/domain/ledger/history.repository.ts',
    calls: {
      'HistoryRepository.balances': (db) => new HistoryRepository(db).balances([UUID]),
      'HistoryRepository.recent': (db) => new HistoryRepository(db).recent([UUID], 20),
      'HistoryRepository.page': (db) => new HistoryRepository(db).page(UUID, UUID, 20, 0),
      'HistoryRepository.byReference': (db) => new HistoryRepository(db).byReference(UUID, UUID, 1, 'ref'),
      'HistoryRepository.byIds': (db) => new HistoryRepository(db).byIds(OWNER, [UUID]),
      'HistoryRepository.asPostedByIds': (db) => new HistoryRepository(db).asPostedByIds([UUID]),
      'HistoryRepository.transactionCounts': (db) => new HistoryRepository(db).transactionCounts([UUID]),
      'HistoryRepository.balancesAsOf': (db) => new HistoryRepository(db).balancesAsOf([UUID], AT),
      'HistoryRepository.recentAsOf': (db) => new HistoryRepository(db).recentAsOf([UUID], 20, AT),
      'HistoryRepository.primaryAssetId': (db) => new HistoryRepository(db).primaryAssetId(1),
    },
  },
  {
    name: 'ownership.repository.sql',
    source: 'src/domain/ownership/ownership.repository.ts',
    calls: {
      'OwnershipRepository.ownsProject': (db) => new OwnershipRepository(db).ownsProject(OWNER, 1),
      'OwnershipRepository.findWallet': (db) => new OwnershipRepository(db).findWallet(OWNER, UUID, UUID, 1),
    },
  },
  {
    name: 'hold.repository.sql',
    source: 'src/domain/holds/hold.repository.ts',
    calls: {
      'HoldRepository.byIds': (db) => new HoldRepository(db).byIds(OWNER, [UUID]),
      'HoldRepository.anyByIds': (db) => new HoldRepository(db).anyByIds([UUID]),
      'HoldRepository.list': (db) => new HoldRepository(db).list(1, UUID, 'pending', { limit: 20, offset: 0, before: null }),
      'HoldRepository.sweepDue': (db) => new HoldRepository(db).sweepDue(500),
    },
  },
  {
    name: 'lot.repository.sql',
    source: 'src/domain/lots/lot.repository.ts',
    calls: {
      'LotRepository.live': (db) => new LotRepository(db).live([{ walletId: UUID, assetId: UUID }], 10),
      'LotRepository.sweep': (db) => new LotRepository(db).sweep(500),
    },
  },
  {
    name: 'outbox.repository.sql',
    source: 'src/domain/outbox/outbox.repository.ts',
    calls: {
      'OutboxRepository.sequenceCommitted': (db) => new OutboxRepository(db).sequenceCommitted(),
      'OutboxRepository.sequenceCommitted (a project)': (db) => new OutboxRepository(db).sequenceCommitted({ projectId: 1 }),
      'OutboxRepository.emit': (db, tx) => new OutboxRepository(db).emit(tx, { projectId: 1, type: 'wallet.status_changed', subjectId: UUID, status: 'suspended', at: AT }),
    },
  },
  {
    name: 'event.repository.sql',
    source: 'src/domain/events/event.repository.ts',
    calls: {
      'EventRepository.page': (db) => new EventRepository(db).page(1, '0', 21),
      'EventRepository.count': (db) => new EventRepository(db).count(1),
      'EventRepository.stream': (db) => new EventRepository(db).stream('0', 500),
      'EventRepository.byIds': (db) => new EventRepository(db).byIds([UUID]),
      'EventRepository.streamTop': (db) => new EventRepository(db).streamTop(),
    },
  },
];

/**
 * Representative reads that the SQL plans answer (src/graphql/sql-plan): each document's plan is
 * one statement. Variables are fixed, so the plan's text is too.
 */
const PLANNED: Record<string, { document: string; variables: Record<string, unknown> }> = {
  'project → wallets → balances, transactions (the nested read)': {
    document: `query ($id: ID!) {
      project(id: $id) { id name wallets(first: 20) { totalCount pageInfo { hasNextPage endCursor }
        edges { cursor node { id address type status balances { account currency balance held available }
          transactions(first: 5) { pageInfo { hasNextPage endCursor } edges { node { id amount currency from to date balance reference } } } } } } }
    }`,
    variables: { id: '1' },
  },
  'wallet → balances, transactions': {
    document: `query ($id: ID!) {
      wallet(id: $id) { id projectId address type status createdAt updatedAt balances { currency assetId balance held available }
        transactions(first: 20) { pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { id amount currency from to date balance } } } }
    }`,
    variables: { id: UUID },
  },
  'wallets of a project': {
    document: `query ($projectId: ID!) {
      wallets(projectId: $projectId, first: 20, type: CUSTOMER) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id address balances { currency balance } } } }
    }`,
    variables: { projectId: '1' },
  },
  '_entities (federation: Wallet representations)': {
    document: `query ($representations: [_Any!]!) {
      _entities(representations: $representations) { ... on Wallet { id address balances { currency balance } transactions(first: 3) { edges { node { id amount } } } } }
    }`,
    variables: { representations: [{ __typename: 'Wallet', id: UUID }] },
  },
};

/** Every generated file: its name in src/queries and its text. */
export async function generateQueries(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of FILES) {
    const sections: string[] = [];
    for (const [label, call] of Object.entries(file.calls)) sections.push(...(await capture(call)).map((statement) => section(label, statement)));
    files.set(file.name, header(file.source) + sections.join('\n'));
  }
  const { schema } = await buildLedgerSchema();
  const plans = Object.entries(PLANNED).map(([label, { document, variables }]) => {
    const plan = planQuery({ schema, document: parse(document), operationName: null, variables, ownerId: OWNER, maxPageSize: DEFAULT_LIMITS.maxPageSize });
    if (!plan) throw new Error(`sql-generator: the SQL plans do not answer "${label}"`);
    return section(label, { sql: plan.sql });
  });
  files.set('graphql.sql-plan.sql', header('src/graphql/sql-plan/planner.ts (planQuery) over the documents in src/cli/sql-generator.ts') + plans.join('\n'));
  return files;
}

/** The statements one call sends. It runs against a stand-in that answers no rows, so a call that needs a row stops after its first statement: that statement is captured all the same. */
async function capture(call: QueryFile['calls'][string]): Promise<Captured[]> {
  const captured: Captured[] = [];
  const db = {
    query: async (sql: string, _params?: unknown[], name?: string) => {
      captured.push({ sql, name });
      return [];
    },
  } as unknown as Database;
  const tx = {
    execute: async (sql: string) => {
      captured.push({ sql });
      return [];
    },
  } as unknown as EntityManager;
  await call(db, tx).catch((error: unknown) => {
    if (captured.length === 0) throw error;
  });
  if (captured.length === 0) throw new Error('sql-generator: a call sent no statement');
  return captured;
}

const header = (source: string): string =>
  `-- Generated by \`npm run sql:generate\` (src/cli/sql-generator.ts): do not edit by hand.\n` +
  `-- The SQL that ${source} sends, exactly as sent ($n and ? are its parameters).\n` +
  `-- test/cli/sql-generator.test.ts fails when this file and the code differ: regenerate, and review the difference.\n\n`;

const section = (label: string, { sql, name }: Captured): string => `-- ${label}${name ? ` (prepared as ${name})` : ''}\n${layout(sql)};\n`;

/** The statement's text with its code's indentation removed: the first line as is, the others dedented together; no trailing spaces or blank lines. */
function layout(sql: string): string {
  const lines = sql.split('\n').map((line) => line.trimEnd());
  while (lines.length && lines[0] === '') lines.shift();
  while (lines.length && lines.at(-1) === '') lines.pop();
  const [first, ...rest] = lines;
  const indents = rest.filter((line) => line !== '').map((line) => line.length - line.trimStart().length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return [first.trim(), ...rest.filter((line) => line !== '').map((line) => `  ${line.slice(cut)}`)].join('\n');
}
