/**
 * WebSocket close codes of GraphQL subscriptions on /graphql (docs/decisions/subscriptions.md). 4401 is
 * graphql-transport-ws's own "Unauthorized" and 4408 its "Connection initialisation timeout";
 * 4429 (CONTRACT §18) is the protocol's "too many" code, which a graphql-ws client does not retry.
 * 1013 "Try Again Later" is the standard code for a server shedding load: a graphql-ws client
 * reconnects after it, which is what a subscriber that fell behind should do (and then catch up
 * through `events(after:)`).
 */
export const CLOSE = {
  /** connection_init without an api_key, with an unknown one, or the key was revoked since. */
  unauthorized: { code: 4401, reason: 'Unauthorized: missing, unknown or revoked api_key' },
  /** The owner already holds MAX_SOCKETS_PER_OWNER sockets on this instance. */
  tooManySockets: { code: 4429, reason: 'Too many subscription sockets for this owner' },
  /** Sent by graphql-ws itself when no connection_init came within INIT_WAIT_MS (named here for the docs and tests). */
  initTimeout: { code: 4408, reason: 'Connection initialisation timeout' },
  /** The subscriber fell behind: its buffer of unsent events filled. */
  tooSlow: { code: 1013, reason: 'Try again later: subscriber too slow, events dropped' },
  /** The instance shuts down. */
  goingAway: { code: 1001, reason: 'Going away: server shutting down' },
  /** The key could not be checked (the database is unreachable). */
  internal: { code: 1011, reason: 'Internal error' },
} as const;
