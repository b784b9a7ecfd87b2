// Live wallet balances over GraphQL subscriptions: graphql-ws's browser client (served as
// /static/graphql-ws.js, the global `graphqlWs`) on the service's own /graphql, the api_key in
// connection_init. When the socket is not connected (no WebSocket, a proxy that drops it, a
// refused key), `connected` is false and the console keeps polling. `initial: true`: each
// subscription first sends the wallet as it is at its starting point, so a change made between the
// console's table read and the subscription starting is shown at once, not at the next re-read.
/** @import { GqlLedgerEvent, GqlWalletChange, KeySource, WsClient, WsResult } from './types.js' */

const WALLET_CHANGED = `subscription($id: ID!) { walletChanged(walletId: $id, initial: true) {
  id status balances { currency balance held available } } }`;

/**
 * @param {{ apiKey: KeySource, onWallet: (wallet: GqlWalletChange) => void, onState: (connected: boolean) => void }} callbacks
 */
export function liveWallets({ apiKey, onWallet, onState }) {
  const url = new URL('/graphql', location.href).toString().replace(/^http/, 'ws');
  /** @type {Map<string, () => void>} wallet id → dispose */
  const subscriptions = new Map();
  /** @type {WsClient | null} */
  let client = null;
  /** @type {string | null} */
  let clientKey = null;
  let connected = false;

  const setConnected = (/** @type {boolean} */ value) => {
    if (connected === value) return;
    connected = value;
    onState(value);
  };

  function clientForKey() {
    if (typeof graphqlWs === 'undefined' || typeof WebSocket === 'undefined') return null;
    const key = apiKey.get();
    if (client && clientKey === key) return client;
    for (const dispose of subscriptions.values()) dispose();
    subscriptions.clear();
    client?.dispose();
    clientKey = key;
    client = graphqlWs.createClient({
      url,
      connectionParams: () => ({ api_key: apiKey.get() }),
      lazy: true,
      on: { connected: () => setConnected(true), closed: () => setConnected(false) },
    });
    return client;
  }

  return {
    get connected() {
      return connected;
    },
    /**
     * Follows exactly these wallets: subscribes to the new ones, completes the others.
     * @param {string[]} walletIds
     */
    watch(walletIds) {
      const live = clientForKey();
      if (!live) return;
      const wanted = new Set(walletIds.filter(Boolean));
      for (const [id, dispose] of subscriptions) {
        if (wanted.has(id)) continue;
        dispose();
        subscriptions.delete(id);
      }
      for (const id of wanted) {
        if (subscriptions.has(id)) continue;
        const forget = () => subscriptions.delete(id);
        subscriptions.set(id, live.subscribe({ query: WALLET_CHANGED, variables: { id } }, {
          next: (/** @type {WsResult<{ walletChanged: GqlWalletChange }>} */ result) => result.data?.walletChanged && onWallet(result.data.walletChanged),
          error: forget, // polling covers it; the next watch() subscribes again
          complete: forget,
        }));
      }
    },
    stop() {
      for (const dispose of subscriptions.values()) dispose();
      subscriptions.clear();
      client?.dispose();
      client = null;
      setConnected(false);
    },
  };
}

const LEDGER_EVENTS = `subscription($projectId: ID!) { ledgerEvents(projectId: $projectId) { id seq type projectId data createdAt } }`;

/**
 * A project's events as they commit (ledgerEvents), each once in `seq` order, on a socket of its
 * own that closes with stop(). Without a socket, `onState(false)` and the view reads pages instead.
 */
/**
 * @param {{ apiKey: KeySource, projectId: number | null, onEvent: (event: GqlLedgerEvent) => void, onState: (connected: boolean) => void }} callbacks
 */
export function liveEvents({ apiKey, projectId, onEvent, onState }) {
  if (typeof graphqlWs === 'undefined' || typeof WebSocket === 'undefined') {
    onState(false);
    return { stop() {} };
  }
  const url = new URL('/graphql', location.href).toString().replace(/^http/, 'ws');
  const client = graphqlWs.createClient({
    url,
    connectionParams: () => ({ api_key: apiKey.get() }),
    on: { connected: () => onState(true), closed: () => onState(false) },
  });
  const dispose = client.subscribe({ query: LEDGER_EVENTS, variables: { projectId } }, {
    next: (/** @type {WsResult<{ ledgerEvents: GqlLedgerEvent }>} */ result) => result.data?.ledgerEvents && onEvent(result.data.ledgerEvents),
    error: () => onState(false),
    complete: () => onState(false),
  });
  return {
    stop() {
      dispose();
      client.dispose();
    },
  };
}
