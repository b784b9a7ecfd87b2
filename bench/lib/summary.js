// The SUMMARY block: per workload, every run, the mean per arm, the ratios service / each
// reference (all from this one invocation), hot / uniform, peak RSS, and issue 14's goals.

import { table, runRow, RUN_HEADERS, fixed } from './report.js';

const verdict = (ok) => (Number.isNaN(ok) ? 'n/a' : ok ? 'MET' : 'NOT MET');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? a / b : NaN);

/** Issue 14's goals, as ratios of this run; `undefined` when an arm did not run. */
function goals(results, peaks) {
  const a = (workload, arm) => results[workload]?.aggregate[arm];
  const okRatio = (workload, arm) => ratio(a(workload, 'service')?.okPerSecond, a(workload, arm)?.okPerSecond);
  const list = [
    ['uniform transfers >= 1.0 × the one-statement baseline', okRatio('transfers', 'baseline'), (r) => r >= 1.0],
    ['uniform transfers >= 0.7 × pgbench', okRatio('transfers', 'pgbench'), (r) => r >= 0.7],
    ['hot wallet >= 0.8 × uniform (service)', ratio(a('hot', 'service')?.okPerSecond, a('transfers', 'service')?.okPerSecond), (r) => r >= 0.8],
    ['uniform transfers p99 <= 57 ms (service)', a('transfers', 'service')?.p99, (v) => v <= 57],
    ['nested read >= 0.85 × baseline', okRatio('read', 'baseline'), (r) => r >= 0.85],
    ['nested read >= 2.5 × PostGraphile', okRatio('read', 'postgraphile'), (r) => r >= 2.5],
    ['_entities >= 1.2 × PostGraphile', okRatio('entities', 'postgraphile'), (r) => r >= 1.2],
    ['peak RSS <= 1.5 × baseline', ratio(peaks.service, peaks.baseline), (r) => r <= 1.5],
  ];
  return list.filter(([, value]) => Number.isFinite(value)).map(([text, value, test]) => ({ text, value, met: test(value) }));
}

export function printSummary({ say, command, results, arms, problems, answerChecks, setupChecks, skipped }) {
  say();
  say('================================================================ SUMMARY');
  say(`command: ${command}`);
  for (const [name, result] of Object.entries(results)) {
    say();
    say(`${name}: ${result.description}`);
    say(table(RUN_HEADERS, result.runs.map(runRow)));
    const a = result.aggregate;
    const names = Object.keys(a);
    const rows = names.map((arm) => [
      arm,
      fixed(a[arm].okPerSecond, 0),
      fixed(a[arm].p50, 1),
      fixed(a[arm].p99, 1),
      a[arm].errors,
      result.samples[arm]?.median ?? '-',
      fixed(result.samples[arm]?.latencyMedian, 1),
      fixed(a[arm].peakRss, 0),
      fixed(a[arm].cpuApp, 3),
      fixed(a[arm].cpuPg, 3),
    ]);
    // every service arm (the service, then its --variant arms) over every reference, then each variant over the service
    const services = names.filter((n) => n.startsWith('service'));
    const pairs = [
      ...services.flatMap((mine) => names.filter((n) => !n.startsWith('service')).map((other) => [mine, other])),
      ...services.filter((n) => n !== 'service' && a.service).map((variant) => [variant, 'service']),
    ];
    for (const [mine, other] of pairs) {
      rows.push([
        `${mine}/${other}`,
        fixed(ratio(a[mine].okPerSecond, a[other].okPerSecond), 2),
        fixed(ratio(a[mine].p50, a[other].p50), 2),
        fixed(ratio(a[mine].p99, a[other].p99), 2),
        '',
        '',
        fixed(ratio(result.samples[mine]?.latencyMedian, result.samples[other]?.latencyMedian), 2),
        fixed(ratio(a[mine].peakRss, a[other].peakRss), 2),
        fixed(ratio(a[mine].cpuApp, a[other].cpuApp), 2),
        fixed(ratio(a[mine].cpuPg, a[other].cpuPg), 2),
      ]);
    }
    say();
    say(table(['mean of runs', '2xx/s', 'p50 ms', 'p99 ms', 'errors', 'sql/req', 'unloaded ms', 'peak RSS MiB', 'cpu ms/2xx app', 'cpu ms/2xx pg'], rows));
    for (const arm of names) {
      const last = result.runs.filter((r) => r.target === arm).at(-1);
      if (!last) continue;
      say(`pg_stat_statements, ${arm}, round ${last.round} (top by total time; calls per 2xx, mean ms, statement):`);
      for (const st of last.statements.top.slice(0, 3)) {
        say(`  ${fixed(last.ok ? st.calls / last.ok : NaN, 2).padStart(6)}  ${fixed(st.mean_ms, 3).padStart(8)}  ${st.query.slice(0, 110)}`);
      }
    }
  }

  say();
  if (results.hot && results.transfers) {
    for (const arm of Object.keys(results.hot.aggregate)) {
      const r = ratio(results.hot.aggregate[arm].okPerSecond, results.transfers.aggregate[arm]?.okPerSecond);
      say(`${arm}: hot / uniform transfers 2xx/s = ${fixed(r, 2)}`);
    }
  } else if (results.hot) {
    say('hot / uniform ratio: run both in one go (e.g. `npm run bench:hot -- transfers`) to get it');
  }
  const peaks = {};
  for (const arm of arms.filter((t) => t.server)) {
    peaks[arm.name] = Math.max(...Object.values(results).flatMap((r) => r.runs.filter((run) => run.target === arm.name).map((run) => run.peakRss)));
  }
  say(`peak RSS over all runs, MiB: ${Object.entries(peaks).map(([k, v]) => `${k} ${fixed(v, 0)}`).join(', ')}; service/baseline ${fixed(ratio(peaks.service, peaks.baseline), 2)}`);
  say();
  say('issue 14 goals (ratios of this run):');
  for (const g of goals(results, peaks)) say(`  ${g.text}: ${fixed(g.value, 2)} ${verdict(g.met)}`);

  say();
  for (const line of skipped) say(`skipped: ${line}`);
  for (const check of setupChecks) if (!check.ok) say(`ledger after seeding (${check.target}): FAIL ${check.problems.join('; ')}`);
  for (const [name, check] of Object.entries(answerChecks)) say(`${name}, answers before the load: ${check.summary}`);
  for (const [name, p] of Object.entries(problems)) {
    if (p.count) say(`${name} logged ${p.count} warning/error line(s); first: ${p.first[0]}`);
  }
  say('columns: 2xx/s = successful answers per second (pgbench: tps; ratios use this); errors = non-2xx + connection errors');
  say('  + timeouts (+ GraphQL errors in 200s; pgbench: failed transactions and aborted clients); sql/req = x-sql-statements header,');
  say('  median of 5 sequential requests before the load (unloaded ms: their median latency); db stmts/2xx = top-level statements');
  say('  pg_stat_statements saw in that database during the run / 2xx; peak RSS = the server process\'s high-water mark during');
  say('  the run (VmHWM, reset before each run); cpu = /proc time of the server process (app) and of PostgreSQL (pg) per 2xx;');
  say('  ledger = invariants checked after the run. PostGraphile reads the baseline\'s database; pgbench writes its own copy.');
  return goals(results, peaks);
}
