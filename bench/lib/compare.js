// Answers compared across arms before the load: the same question on the same data must get
// the same answer, or the figures compare different work.

import { call } from './http.js';

export function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** First structural difference (keys and JSON types) between two answers, or undefined. */
export function shapeDifference(a, b, where = '$') {
  const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b)) return `${where}: ${kind(a)} vs ${kind(b)}`;
  if (kind(a) === 'array') return a.length && b.length ? shapeDifference(a[0], b[0], `${where}[0]`) : undefined;
  if (kind(a) === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      if (!(key in a)) return `${where}.${key}: only in baseline`;
      if (!(key in b)) return `${where}.${key}: only in service`;
      const d = shapeDifference(a[key], b[key], `${where}.${key}`);
      if (d) return d;
    }
  }
  return undefined;
}

/** First value difference between two JSON values, or undefined. */
function valueDifference(a, b, where = '$') {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return Object.is(a, b) ? undefined : `${where}: ${JSON.stringify(a)?.slice(0, 80)} vs ${JSON.stringify(b)?.slice(0, 80)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${where}: array vs object`;
  if (Array.isArray(a) && a.length !== b.length) return `${where}: ${a.length} vs ${b.length} elements`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const d = valueDifference(a[key], b[key], `${where}${Array.isArray(a) ? `[${key}]` : `.${key}`}`);
    if (d) return d;
  }
  return undefined;
}

const summaryText = (s) => `${s.wallets} wallets, ${s.transactions} transactions, balances ${s.balanceSum}, amounts ${s.transactionAmountSum} (minor units), ids ${s.ids}`;

/**
 * Asks every arm the workload's question with the same arguments. The service and the baseline
 * answer in the same schema: their JSON must be identical. A peer (PostGraphile) names things
 * its own way: its counts, sums and ids must equal the baseline's (same database).
 */
export async function compareAnswers(workload, arms, apiKey) {
  const bodyFor = workload.checkBodies();
  const answers = {};
  for (const arm of arms) {
    const response = await call(arm.url, 'POST', '/graphql', { body: bodyFor(arm.name), headers: { api_key: apiKey }, allow: true });
    const json = response.json;
    const problem = response.status !== 200 ? `status ${response.status}` : json?.errors ? `errors: ${JSON.stringify(json.errors).slice(0, 300)}` : undefined;
    answers[arm.name] = { status: response.status, json, problem, summary: problem ? undefined : workload.summarize(json, arm.name), bytes: Buffer.byteLength(response.text), text: response.text.slice(0, 400) };
  }
  const lines = [];
  const { service, baseline } = answers;
  for (const [name, a] of Object.entries(answers)) {
    if (a.problem || !a.summary) lines.push(`${name}: cannot compare (${a.problem ?? 'unexpected answer'}): ${a.text}`);
  }
  if (service?.summary && baseline?.summary) {
    const shape = shapeDifference(service.json, baseline.json);
    const value = valueDifference(service.json, baseline.json);
    lines.push(`service vs baseline: ${shape ? `shapes differ at ${shape}` : value ? `same shape, values differ at ${value}` : 'identical answers'} (bytes: service ${service.bytes}, baseline ${baseline.bytes})`);
  }
  const reference = baseline?.summary;
  for (const [name, a] of Object.entries(answers)) {
    if (name === 'service' || name === 'baseline' || !a.summary || !reference) continue;
    const same = JSON.stringify(a.summary) === JSON.stringify(reference);
    lines.push(`${name} vs baseline: ${same ? 'same data' : 'DIFFERENT data'}: ${summaryText(a.summary)}${same ? '' : ` vs ${summaryText(reference)}`} (bytes: ${a.bytes})`);
  }
  if (reference) lines.push(`baseline answer: ${summaryText(reference)}`);
  const ok = lines.every((l) => !/cannot compare|differ|DIFFERENT/.test(l));
  return { ok, summary: lines.join('\n  '), summaries: Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, a.summary])) };
}
