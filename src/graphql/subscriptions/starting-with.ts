/** The first value of a walletChanged subscription with `initial: true`: "the wallet as it is now", not an event. */
export const CURRENT: unique symbol = Symbol('current');

/**
 * An iterator that yields CURRENT, then every value of `feed`. Written by hand rather than as an
 * async generator: a generator waiting inside `yield*` queues `return()` until the feed's next
 * value, so a client that completes a quiet subscription would leave its feed open; here
 * `return()` reaches the feed at once.
 */
export function startingWith<T>(feed: AsyncIterableIterator<T>): AsyncIterableIterator<T | typeof CURRENT> {
  let first = true;
  const iterator: AsyncIterableIterator<T | typeof CURRENT> = {
    next() {
      if (!first) return feed.next();
      first = false;
      return Promise.resolve({ value: CURRENT, done: false });
    },
    return() {
      first = false;
      return feed.return ? feed.return() : Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
