import { z } from 'zod';
import type { JournalEntry, VerifyReport } from '../domain/journal/journal.types.js';
import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { ProjectIdParams } from './projects.schemas.js';
import { afterSeq, queryInt } from './schemas.js';

const JournalPageQuery = z.strictObject({
  after: afterSeq('entries'),
  limit: queryInt(1, 100).default(20),
});

const HASH = z.string().regex(/^[0-9a-f]{64}$/);

const JournalEntryBody = z
  .object({
    seq: z.number().int().meta({ description: 'From 1, without gaps, in commit order.' }),
    transactionId: z.string(),
    hash: HASH.meta({ description: 'Lower-case hex SHA-256 of `prevHash + "\\n" + canonical` (CONTRACT §22; docs/guides/journal-and-analytics.md: verifying a chain yourself).' }),
    prevHash: HASH.meta({ description: "The previous entry's hash; 64 zeros for the first." }),
  })
  .meta({ id: 'JournalEntry' });

const VerifyBody = z
  .union([
    z.object({ ok: z.literal(true), entries: z.number().int(), lastSeq: z.number().int(), lastHash: HASH }),
    z.object({
      ok: z.literal(false),
      entries: z.number().int(),
      reason: z.enum(['hash_mismatch', 'balance_mismatch']),
      seq: z.number().int().nullable(),
      transactionId: z.string().nullable(),
      walletId: z.string().nullable(),
    }),
  ])
  .meta({ id: 'JournalVerification' });

const entryJson = (entry: JournalEntry) => ({ seq: Number(entry.seq), transactionId: entry.transactionId, hash: entry.hash, prevHash: entry.prevHash });

/** The journal of a project (CONTRACT §22). */
export function journalRoutes({ journal }: Services): Route[] {
  return [
    route({
      method: 'GET',
      path: '/projects/{id}/journal',
      auth: 'api_key',
      params: ProjectIdParams,
      query: JournalPageQuery,
      doc: {
        operationId: 'listJournalEntries',
        summary: "A project's journal: each transaction's place and hash in commit order, after `after`",
        tag: 'journal',
        response: {
          status: 200,
          schema: z.object({
            entries: z.array(JournalEntryBody),
            pagination: z.object({ limit: z.number().int(), after: z.number().int(), nextAfter: z.number().int(), hasMore: z.boolean() }),
          }),
        },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params, query }) => {
        const page = await journal.page(principal, { projectId: params.id, ...query });
        return {
          status: 200,
          body: { entries: page.entries.map(entryJson), pagination: { limit: query.limit, after: Number(page.after), nextAfter: Number(page.nextAfter), hasMore: page.hasMore } },
        };
      },
    }),
    route({
      method: 'GET',
      path: '/projects/{id}/journal/verify',
      auth: 'api_key',
      params: ProjectIdParams,
      doc: {
        operationId: 'verifyJournal',
        summary: "Recomputes every hash of the project's journal from the stored transactions and checks every wallet's balance against it",
        tag: 'journal',
        response: { status: 200, schema: VerifyBody },
        errors: ['validation_error', 'not_found'],
      },
      handler: async ({ principal, params, signal }): Promise<{ status: number; body: VerifyReport }> => ({ status: 200, body: await journal.verify(principal, params.id, signal) }),
    }),
  ];
}
