/** Distinct plan texts prepared at most (on each pooled connection, for the life of the process). */
const MAX_PREPARED = 32;
/** Sightings before a text is prepared: a one-off document does not take a slot. */
const SIGHTINGS = 3;
/** Texts counted at most while they wait for their sightings (the count starts over when full). */
const MAX_CANDIDATES = 256;

/**
 * Names for the plan texts a client keeps sending, so PostgreSQL parses and plans each once per
 * connection (node-postgres prepares a named statement on first use) instead of at every request:
 * planning costs about as much as running _entities of 100 wallets (bench/README.md). Plans are
 * generated SQL, so this is bounded: the first MAX_PREPARED texts seen SIGHTINGS times are named,
 * and keep their names (a connection may hold them); any other text runs unnamed.
 */
export class PreparedPlans {
  private readonly names = new Map<string, string>();
  private readonly candidates = new Map<string, number>();

  nameOf(sql: string): string | undefined {
    const name = this.names.get(sql);
    if (name !== undefined || this.names.size >= MAX_PREPARED) return name;
    const seen = (this.candidates.get(sql) ?? 0) + 1;
    if (seen < SIGHTINGS) {
      if (this.candidates.size >= MAX_CANDIDATES) this.candidates.clear();
      this.candidates.set(sql, seen);
      return undefined;
    }
    this.candidates.delete(sql);
    const named = `ledger_sql_plan_${this.names.size + 1}`;
    this.names.set(sql, named);
    return named;
  }
}
