// The dashboard (CONTRACT §23): points issued, redeemed and expired per day as a chart, and the
// program's liability (outstanding points and their fiat value), for plans with advanced_analytics.
import { ApiError, rest } from './api.js';
import { seriesChart } from './chart.js';
import { el, failure, heading, loading, noProject, notice } from './dom.js';
/** @import { Analytics, Ctx } from './types.js' */

const SERIES = /** @type {const} */ (['issued', 'redeemed', 'expired']);
/** @type {[keyof Analytics['totals'], string][]} */
const TOTALS = [
  ['outstanding', 'Outstanding points (liability)'],
  ['outstandingValue', 'Liability in fiat (at the exchange rate)'],
  ['issued', 'Issued'],
  ['redeemed', 'Redeemed'],
  ['expired', 'Expired'],
  ['transferred', 'Transferred'],
  ['reversed', 'Reversed'],
];

// The periods offered: the API's default (30 day buckets ending today), a quarter, and two days by the hour.
/** @type {[string, string, { interval: 'day' | 'hour', days?: number, hours?: number }][]} */
const RANGES = [
  ['30d', 'Last 30 days', { interval: 'day' }],
  ['90d', 'Last 90 days', { interval: 'day', days: 90 }],
  ['48h', 'Last 48 hours, hourly', { interval: 'hour', hours: 48 }],
];

/**
 * @param {HTMLElement} view
 * @param {Ctx} ctx
 */
export function mount(view, ctx) {
  const range = el('select', { id: 'dashboard-range', onchange: () => void load() }, RANGES.map(([value, label]) => el('option', { value }, label)));
  view.append(heading('Dashboard', el('label', { for: 'dashboard-range' }, 'Period'), range));
  if (!ctx.project) return void view.append(noProject());
  if (ctx.plan && !ctx.plan.advanced_analytics) {
    range.disabled = true;
    return void view.append(locked(ctx.plan.plan_code));
  }
  const body = el('div', {}, loading('analytics'));
  view.append(body);
  async function load() {
    const [, , period] = RANGES.find(([value]) => value === range.value) ?? RANGES[0];
    /** @type {Record<string, string>} */
    const query = { interval: period.interval };
    const buckets = period.days ?? period.hours;
    if (buckets) {
      // without `until` the range ends with the current bucket; `since` is rounded down to a bucket start
      const size = period.days ? 86400_000 : 3600_000;
      const end = Math.floor(Date.now() / size) * size + size;
      query.since = new Date(end - buckets * size).toISOString();
    }
    const started = performance.now();
    try {
      /** @type {Analytics} */
      const analytics = await rest('GET', `/projects/${ctx.projectId}/analytics`, { query });
      body.replaceChildren(totals(analytics), chart(analytics));
      view.dataset.loadedMs = String(Math.round(performance.now() - started));
    } catch (error) {
      const notInPlan = error instanceof ApiError && error.code === 'feature_unavailable';
      range.disabled = notInPlan || (error instanceof ApiError && error.unavailable);
      body.replaceChildren(notInPlan ? locked(ctx.plan?.plan_code) : failure(error, 'Analytics'));
    }
  }
  void load();
}

/** @param {string | undefined} planCode */
function locked(planCode) {
  return notice('locked', 'Analytics are not in your plan', `The ${planCode ?? 'current'} plan has no advanced analytics; the starter, pro and enterprise plans do. Everything else in the console works as before.`, el('a', { href: '#/program' }, 'See your plan'));
}

/** @param {Analytics} a */
function totals(a) {
  const value = (/** @type {keyof Analytics['totals']} */ key) => {
    if (key === 'outstandingValue') return a.totals.outstandingValue === null ? 'no exchange rate' : Number(a.totals.outstandingValue).toLocaleString(undefined, { minimumFractionDigits: 2 });
    return `${Number(a.totals[key]).toLocaleString()} ${a.currency}`;
  };
  return el('section', { class: 'cards', 'aria-label': `Totals from ${a.since.slice(0, 10)} to ${a.until.slice(0, 10)}` },
    TOTALS.map(([key, label]) => el('div', { class: `card stat${key.startsWith('outstanding') ? ' stat-main' : ''}`, 'data-total': key }, el('p', { class: 'stat-label' }, label), el('p', { class: 'stat-value' }, value(key)))));
}

/** @param {Analytics} a */
function chart(a) {
  const legend = el('ul', { class: 'legend' }, SERIES.map((k) => el('li', { class: `key-${k}` }, k)));
  return el('section', { class: 'panel', 'aria-labelledby': 'series-title' },
    el('h3', { id: 'series-title' }, `${a.currency} per ${a.interval}, last ${a.series.length} ${a.interval}s`),
    el('figure', {}, seriesChart(a.series, SERIES, { label: `${a.currency} issued, redeemed and expired per ${a.interval}` }), el('figcaption', {}, legend)));
}
