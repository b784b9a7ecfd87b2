// One measured run: autocannon (programmatic API) against one target, plus the
// statements-per-request sample and the pg_stat_statements view of the run.

import autocannon from 'autocannon';
import { call } from './http.js';

/** Runs autocannon; resolves with the figures the report needs. */
export async function runLoad(target, workload, { connections, duration, checkBody }) {
  let bodyErrors = 0;
  let firstBodyError;
  const requests = workload.requestsFor(target.name).map((r) =>
    checkBody
      ? {
          ...r,
          onResponse: (status, body) => {
            if (status >= 200 && status < 300 && body && body.includes('"errors"')) {
              bodyErrors += 1;
              firstBodyError ??= body.slice(0, 400);
            }
          },
        }
      : r,
  );
  const result = await new Promise((resolve, reject) => {
    const instance = autocannon(
      { url: target.url, connections, duration, requests, timeout: 10, excludeErrorStats: false },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
    instance.on('error', () => undefined);
  });
  const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]));
  const ok = result['2xx'];
  return {
    rps: result.requests.average,
    okPerSecond: ok / result.duration,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: result.requests.total,
    ok,
    non2xx: result.non2xx,
    // autocannon counts a timeout both in `errors` and in `timeouts`.
    errors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    bodyErrors,
    firstBodyError,
    errorCount: result.non2xx + result.errors + bodyErrors,
    statuses,
    duration: result.duration,
  };
}

/**
 * Sends `count` requests of the workload one after another and reads `x-sql-statements`.
 * Returns the counts, the statuses and one response body (for the report).
 */
export async function sampleStatements(target, workload, fixture, count = 5) {
  const counts = [];
  const statuses = [];
  const latencies = [];
  let example;
  for (let i = 0; i < count; i++) {
    const { method, path, body } = workload.sample(target.name);
    const started = performance.now();
    const response = await call(target.url, method, path, { body, headers: { api_key: fixture.apiKey }, allow: true });
    latencies.push(performance.now() - started);
    statuses.push(response.status);
    const header = response.headers.get('x-sql-statements');
    if (header !== null) counts.push(Number(header));
    example ??= response.text.slice(0, 300);
  }
  const median = (values) => (values.length ? [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] : null);
  return { counts, median: median(counts), latencies, latencyMedian: median(latencies), statuses, example };
}

/** pg_stat_statements: reset before a run; after it, the top-level statements of one database. */
export async function resetStatements(pool) {
  await pool.query('SELECT pg_stat_statements_reset()');
}

export async function statementsOfRun(pool, database, limit = 6) {
  const { rows } = await pool.query(
    `SELECT calls::bigint AS calls, round(total_exec_time::numeric, 1)::float8 AS total_ms,
            round(mean_exec_time::numeric, 3)::float8 AS mean_ms, rows::bigint AS rows,
            regexp_replace(query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1) AND toplevel
        AND query NOT ILIKE '%pg_stat_statements%' AND query NOT ILIKE '%pg_stat_activity%'
      ORDER BY total_exec_time DESC`,
    [database],
  );
  const calls = rows.reduce((sum, r) => sum + Number(r.calls), 0);
  return {
    calls,
    top: rows.slice(0, limit).map((r) => ({ ...r, calls: Number(r.calls), rows: Number(r.rows), query: r.query.slice(0, 240) })),
  };
}
