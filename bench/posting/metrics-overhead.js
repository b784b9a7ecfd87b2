// What the metrics cost a transfer on the hot path, in Node CPU: the exact calls one
// POST /transactions makes (one HTTP observation, one posting commit of one posting), timed over
// many iterations, against the transfer's own Node CPU from the transfers bench.
// Usage: npm run build && node bench/posting/metrics-overhead.js
import { Metrics } from '../../dist/src/observability/metrics.js';

const metrics = new Metrics(undefined, { processDefaults: false });
const N = 1_000_000;
const run = () => {
  const started = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    metrics.observeHttp('POST', '/transactions', 201, 0.0123);
    metrics.observePostingCommit(['posted']);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / N;
};
run(); // warm up
const perTransfer = Math.min(run(), run(), run());
console.log(JSON.stringify({ iterations: N, microsecondsPerTransfer: Number(perTransfer.toFixed(3)) }));
