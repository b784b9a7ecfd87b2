import type { LRUCache } from 'lru-cache';
import { lruByBytes, textBytes } from '../retained-size.js';

/** Plan texts named at once at most, and the bytes of the texts named and of those counted. */
export const MAX_PREPARED = 32;
export const PREPARED_TEXT_BYTES = 2 * 1024 * 1024;
export const CANDIDATE_TEXT_BYTES = 1024 * 1024;
/** Sightings before a text is prepared: a one-off document does not take a slot. */
const SIGHTINGS = 3;

export interface PreparedPlansBudget {
  names: number;
  namedBytes: number;
  candidateBytes: number;
}

/**
 * Names for the plan texts clients keep sending, so PostgreSQL parses and plans each once per
 * connection (node-postgres prepares a named statement on first use) instead of at every request:
 * planning costs about as much as running _entities of 100 wallets (bench/README.md). A text seen
 * SIGHTINGS times is named; at most MAX_PREPARED are named at once, the least recently used
 * losing its name first, so no client's first texts keep the slots for good (CONTRACT §18). A
 * name is never given to another text (a connection may hold it prepared, and node-postgres
 * refuses a name bound to another text): a text named again gets a new one, and connections drop
 * the names they no longer need (src/db/prepared-statements.ts).
 */
export class PreparedPlans {
  private readonly names: LRUCache<string, string>;
  private readonly candidates: LRUCache<string, number>;
  private issued = 0;

  constructor(budget: PreparedPlansBudget = { names: MAX_PREPARED, namedBytes: PREPARED_TEXT_BYTES, candidateBytes: CANDIDATE_TEXT_BYTES }) {
    this.names = lruByBytes<string, string>(budget.namedBytes, (name, sql) => textBytes(sql) + textBytes(name), budget.names);
    this.candidates = lruByBytes<string, number>(budget.candidateBytes, (_, sql) => textBytes(sql));
  }

  nameOf(sql: string): string | undefined {
    const name = this.names.get(sql);
    if (name !== undefined) return name;
    const seen = (this.candidates.get(sql) ?? 0) + 1;
    if (seen < SIGHTINGS) {
      this.candidates.set(sql, seen);
      return undefined;
    }
    this.candidates.delete(sql);
    const named = `ledger_sql_plan_${++this.issued}`;
    this.names.set(sql, named);
    return named;
  }
}
