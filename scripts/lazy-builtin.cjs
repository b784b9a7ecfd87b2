// What `require('https')` and `require('tls')` in the bundle resolve to (scripts/build.mjs, `alias`):
// the built-in, loaded on the first read of any of its properties. ws (lib/websocket.js, for its
// client) and prom-client (its push gateway) require both at their top but use them only when they
// connect out, which the service never does at start-up; node:tls costs ≈ 30 ms of CPU to load.
// A Proxy, so that every property, present or future, reads as on the module itself, and every
// write, definition or deletion goes to the module (without those traps a write would define a
// read-only property on the Proxy's empty target, and every later read of it would throw).
// process.getBuiltinModule, not require(): the alias would send require('https') back here.
module.exports = function lazyBuiltin(name) {
  let loaded;
  const target = () => (loaded ??= process.getBuiltinModule(name));
  return new Proxy({}, {
    get: (_, key) => target()[key],
    set: (_, key, value) => Reflect.set(target(), key, value),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(target(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(target(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
    has: (_, key) => key in target(),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
};
