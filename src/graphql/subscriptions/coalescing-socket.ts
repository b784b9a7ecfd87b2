import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';

/**
 * Above this many bytes waiting in a socket's buffers, a send is acknowledged only once written,
 * so a subscriber that does not read holds graphql-ws back, its feed fills and it is dropped
 * (EventFeed's capacity) instead of this process buffering for it without bound.
 */
export const HIGH_WATER_BYTES = 1024 * 1024;

type SendCallback = (err?: Error) => void;
type SendOptions = { mask?: boolean; binary?: boolean; compress?: boolean; fin?: boolean };

/**
 * The WebSocket class of the subscription server (ws's `WebSocket` option). graphql-ws sends a
 * subscription's messages one at a time, each after the previous one's write callback: a burst
 * of events (10,000 `hold.expired` in a second) went out one syscall and one event-loop round
 * per message, and later events of the burst waited behind the earlier ones. Here:
 * - below HIGH_WATER_BYTES a send is acknowledged at once (the bytes are in the socket's
 *   buffer, as ws would report them anyway), so graphql-ws hands over every event a feed holds
 *   in one turn;
 * - the sends of one turn leave in one write: the first send corks the TCP socket and the next
 *   turn (setImmediate) uncorks it, so a burst costs one syscall per turn, not per message.
 * A message is delayed by at most the rest of the turn it was sent in.
 */
export class CoalescingWebSocket extends WebSocket {
  private raw: Duplex | null = null;
  private corked = false;

  /** The TCP socket under this WebSocket (the one the upgrade handed to ws). */
  writesTo(raw: Duplex): void {
    this.raw = raw;
  }

  override send(data: Parameters<WebSocket['send']>[0], options?: SendOptions | SendCallback, cb?: SendCallback): void {
    const callback = typeof options === 'function' ? options : cb;
    const sendOptions = typeof options === 'function' || options === undefined ? {} : options;
    this.corkForThisTurn();
    if (!callback || this.bufferedAmount >= HIGH_WATER_BYTES) {
      super.send(data, sendOptions, callback);
      return;
    }
    // A failed write closes the socket ('close' reaches graphql-ws), so the error is not lost.
    super.send(data, sendOptions, () => undefined);
    process.nextTick(callback);
  }

  private corkForThisTurn(): void {
    const raw = this.raw;
    if (!raw || this.corked || this.readyState !== WebSocket.OPEN) return;
    this.corked = true;
    raw.cork();
    setImmediate(() => {
      this.corked = false;
      raw.uncork();
    });
  }
}
