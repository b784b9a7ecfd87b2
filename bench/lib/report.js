// Console tables and the aggregate figures.

const fixed = (value, digits = 1) => (value === null || value === undefined || Number.isNaN(value) ? '-' : Number(value).toFixed(digits));

export function table(headers, rows) {
  const cells = [headers, ...rows].map((row) => row.map((c) => String(c ?? '-')));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells
    .map((row, r) => {
      const line = row.map((c, i) => (i === 0 || i === row.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
      return r === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

const mean = (values) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);

export function aggregate(runs) {
  return {
    runs: runs.length,
    rps: mean(runs.map((r) => r.rps)),
    okPerSecond: mean(runs.map((r) => r.okPerSecond)),
    p50: mean(runs.map((r) => r.p50)),
    p99: mean(runs.map((r) => r.p99)),
    errors: runs.reduce((a, r) => a + r.errorCount, 0),
    requests: runs.reduce((a, r) => a + r.requests, 0),
    /** MiB, the highest of the runs (NaN for pgbench: no server process). */
    peakRss: Math.max(...runs.map((r) => r.peakRss ?? NaN)),
    cpuApp: mean(runs.map((r) => r.cpuMsPerOk?.app ?? NaN)),
    cpuPg: mean(runs.map((r) => r.cpuMsPerOk?.postgres ?? NaN)),
  };
}

export const statusText = (statuses) =>
  Object.entries(statuses)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([code, count]) => `${code}:${count}`)
    .join(' ') || '-';

export function runRow(run) {
  return [
    run.round,
    run.target,
    fixed(run.rps, 0),
    fixed(run.okPerSecond, 0),
    fixed(run.p50, 1),
    fixed(run.p99, 1),
    run.errorCount,
    run.sqlPerRequest ?? '-',
    run.dbStatementsPerOk === null ? '-' : fixed(run.dbStatementsPerOk, 2),
    Number.isNaN(run.peakRss ?? NaN) ? '-' : fixed(run.peakRss, 0),
    run.check.ok ? 'ok' : 'FAIL',
    statusText(run.statuses) + (run.errors ? ` conn-errors:${run.errors}` : '') + (run.timeouts ? ` timeouts:${run.timeouts}` : '') + (run.bodyErrors ? ` graphql-errors:${run.bodyErrors}` : ''),
  ];
}

export const RUN_HEADERS = ['round', 'arm', 'req/s', '2xx/s', 'p50 ms', 'p99 ms', 'errors', 'sql/req', 'db stmts/2xx', 'peak RSS MiB', 'ledger', 'status codes'];

export { fixed };
