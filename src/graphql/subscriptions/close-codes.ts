/**
 * WebSocket close codes of GraphQL subscriptions on /graphql (docs/decisions.md). 4401 is
 * graphql-transport-ws's own "Unauthorized"; 1013 "Try Again Later" is the standard code for a
 * server shedding load (4429 would read as graphql-ws's "too many initialisation requests"); a
 * graphql-ws client reconnects after it, which is what a subscriber that fell behind should do
 * (and then catch up through `events(after:)`).
 */
export const CLOSE = {
  /** connection_init without an api_key, with an unknown one, or the key was revoked since. */
  unauthorized: { code: 4401, reason: 'Unauthorized: missing, unknown or revoked api_key' },
  /** The subscriber fell behind: its buffer of unsent events filled. */
  tooSlow: { code: 1013, reason: 'Try again later: subscriber too slow, events dropped' },
  /** The instance shuts down. */
  goingAway: { code: 1001, reason: 'Going away: server shutting down' },
  /** The key could not be checked (the database is unreachable). */
  internal: { code: 1011, reason: 'Internal error' },
} as const;
