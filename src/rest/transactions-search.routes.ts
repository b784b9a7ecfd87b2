import { Transform } from 'node:stream';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import type { HistoryRow } from '../domain/ledger/ledger.types.js';
import type { TransactionFilter } from '../domain/search/transaction-search.types.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { TransactionBody, transactionJson } from '../json/transaction.json.js';
import { InstantQuery, ProjectIdQuery, queryInt } from './schemas.js';

const METADATA_PREFIX = 'metadata.';

const SearchQuery = z
  .object({
    projectId: ProjectIdQuery,
    walletId: z.string().optional().meta({ description: 'A wallet id or address of the project: transactions it sent or received; `balance` is then its own.' }),
    from: z.string().optional().meta({ description: 'The sender: a wallet id or address, or `@mint` (seeds).' }),
    to: z.string().optional().meta({ description: 'The receiver: a wallet id or address, `@expired` (expiries) or `@mint` (reversed seeds).' }),
    currency: z.string().optional().meta({ description: 'An asset symbol of the project (default: every currency).' }),
    minAmount: z.string().optional().meta({ description: 'Inclusive, major units; at most the currency’s decimals (18 without `currency`).' }),
    maxAmount: z.string().optional().meta({ description: 'Inclusive, major units.' }),
    since: InstantQuery.optional().meta({ description: 'ISO 8601 with an offset: `date` ≥ since.' }),
    until: InstantQuery.optional().meta({ description: 'ISO 8601 with an offset: `date` < until.' }),
    reference: z.string().optional().meta({ description: 'Exact reference.' }),
    referencePrefix: z.string().optional().meta({ description: 'References starting with this text (taken literally: `%` and `_` are no wildcards).' }),
    reverses: z.string().optional().meta({ description: 'The reversals of this transaction id.' }),
    'metadata.{key}': z
      .string()
      .optional()
      .meta({ description: 'Any number of `metadata.<key>=<text>`: the top-level metadata value for `key` is that string, or the number or boolean whose JSON text it is.' }),
    limit: queryInt(1, 100).default(20),
    after: z.string().optional().meta({ description: 'The `nextAfter` of the previous page (opaque).' }),
  })
  .catchall(z.string())
  .superRefine((query, ctx) => {
    for (const key of Object.keys(query)) {
      if (!SEARCH_FIELDS.has(key) && !(key.startsWith(METADATA_PREFIX) && key.length > METADATA_PREFIX.length)) {
        ctx.addIssue({ code: 'unrecognized_keys', keys: [key], message: `Unrecognized key: "${key}"` });
      }
    }
  })
  .transform(({ 'metadata.{key}': _documented, ...query }) => {
    const known: Record<string, unknown> = {};
    const metadata: { key: string; value: string }[] = [];
    for (const [key, value] of Object.entries(query)) {
      if (SEARCH_FIELDS.has(key)) known[key] = value;
      else metadata.push({ key: key.slice(METADATA_PREFIX.length), value: value as string });
    }
    return { ...known, metadata } as unknown as SearchParams;
  });

/** The named parameters: a Set, not an object, so `__proto__` or `constructor` is no known name (found by the fuzz run). */
const SEARCH_FIELDS: ReadonlySet<string> = new Set(['projectId', 'walletId', 'from', 'to', 'currency', 'minAmount', 'maxAmount', 'since', 'until', 'reference', 'referencePrefix', 'reverses', 'limit', 'after']);

/** The query, parsed: the domain's filter (every metadata pair given) and the page. */
type SearchParams = Required<Pick<TransactionFilter, 'metadata'>> & Omit<TransactionFilter, 'metadata'> & { limit: number; after?: string };

const ExportQuery = z.strictObject({
  projectId: ProjectIdQuery,
  since: InstantQuery.optional().meta({ description: 'ISO 8601 with an offset: `date` ≥ since (default: the first transaction).' }),
  until: InstantQuery.optional().meta({ description: 'ISO 8601 with an offset: `date` < until; may lie in the future (default: everything).' }),
  format: z.enum(['ndjson', 'csv']).default('ndjson'),
});

const SearchBody = z.object({
  transactions: z.array(TransactionBody),
  pagination: z.object({ limit: z.number().int(), nextAfter: z.string().nullable(), hasMore: z.boolean() }),
});

/** The CSV columns of an export (CONTRACT §21), in order. */
export const CSV_COLUMNS = ['id', 'date', 'from', 'to', 'amount', 'currency', 'balance', 'reference', 'reverses', 'metadata'] as const;

/** An export's transaction as a CSV record: null fields empty, metadata as JSON text. */
function csvRecord(row: HistoryRow): (string | number)[] {
  const json = transactionJson(row);
  return [json.id, json.date, json.from, json.to, json.amount, json.currency, json.balance, json.reference ?? '', json.reverses ?? '', JSON.stringify(json.metadata)];
}

/** The export's formatting stages: rows in, text out, one line (ndjson) or one RFC 4180 record (csv) per row. */
function formatting(format: 'ndjson' | 'csv'): Transform[] {
  if (format === 'csv') {
    const records = new Transform({ objectMode: true, transform: (row: HistoryRow, _encoding, done) => done(null, csvRecord(row)) });
    return [records, stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: '\r\n' })];
  }
  return [new Transform({ writableObjectMode: true, transform: (row: HistoryRow, _encoding, done) => done(null, `${JSON.stringify(transactionJson(row))}\n`) })];
}

const CONTENT_TYPES = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8' } as const;

export function transactionSearchRoutes({ search }: Services): Route[] {
  return [
    route({
      method: 'GET',
      path: '/transactions/search',
      auth: 'api_key',
      query: SearchQuery,
      doc: {
        operationId: 'searchTransactions',
        summary:
          "A project's transactions matching every filter given, newest first (ties by commit order), paged by `after`; `balance` is the `walletId` wallet's when given, else the sender's (a seed's: the seeded wallet's)",
        tag: 'transactions',
        response: { status: 200, schema: SearchBody },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query }) => {
        const page = await search.search(principal, query);
        return { status: 200, body: { transactions: page.rows.map(transactionJson), pagination: { limit: query.limit, nextAfter: page.nextAfter, hasMore: page.hasMore } } };
      },
    }),
    route({
      method: 'GET',
      path: '/transactions/export',
      auth: 'api_key',
      query: ExportQuery,
      doc: {
        operationId: 'exportTransactions',
        summary:
          "Every transaction of the project in the range, oldest first, from one snapshot taken when the export starts, streamed as it is read: NDJSON (one transaction per line, the sender's balance) or CSV (RFC 4180, header `id,date,from,to,amount,currency,balance,reference,reverses,metadata`, CRLF)",
        tag: 'transactions',
        response: {
          status: 200,
          schema: TransactionBody,
          content: { [CONTENT_TYPES.ndjson]: TransactionBody, [CONTENT_TYPES.csv]: z.string() },
        },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, query, signal }) => {
        // opened before the headers: a refusal is still an error body, and the snapshot is fixed now
        const rows = await search.export(principal, { projectId: query.projectId, since: query.since, until: query.until }, signal);
        return {
          status: 200,
          body: undefined,
          headers: { 'content-type': CONTENT_TYPES[query.format], 'cache-control': 'no-store' },
          // the server destroys every stage on every path that does not end them, which gives the export's connection back
          stream: [rows, ...formatting(query.format)],
        };
      },
    }),
  ];
}
