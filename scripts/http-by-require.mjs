// What `import … from 'node:http'` in the bundle resolves to (scripts/build.mjs, `alias`): node:http
// by require() (the bundle's banner defines it), not as an ES module. node builds an ES module
// facade of a built-in by reading every export, and node:http's lazy getters (WebSocket,
// EventSource…) load undici for it: about 35 ms of a second start's CPU, plus its garbage. Only
// plain values are re-exported (no getter runs); importing any other name fails the build.
const http = require('http');
export default http;
export const { METHODS, STATUS_CODES, Agent, ClientRequest, IncomingMessage, OutgoingMessage, Server, ServerResponse, createServer, validateHeaderName, validateHeaderValue, get, request } = http;
