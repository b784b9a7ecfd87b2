// A balance-over-time line as plain SVG: no chart library, nothing loaded from elsewhere.
const NS = 'http://www.w3.org/2000/svg';

/**
 * `points`: [{ date: Date, value: number }] oldest first.
 * @param {{ date: Date, value: number }[]} points
 * @param {{ width?: number, height?: number, label?: string }} [size]
 */
export function balanceChart(points, { width = 560, height = 180, label = 'Balance over time' } = {}) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', points.length ? `${label}: from ${points[0].value} to ${points[points.length - 1].value}` : `${label}: no transactions`);
  svg.classList.add('chart');
  if (points.length === 0) return svg;
  const pad = 32;
  const times = points.map((p) => p.date.getTime());
  const values = points.map((p) => p.value);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [v0, v1] = [Math.min(0, ...values), Math.max(...values)];
  const x = (/** @type {number} */ t) => pad + ((t - t0) / (t1 - t0 || 1)) * (width - 2 * pad);
  const y = (/** @type {number} */ v) => height - pad - ((v - v0) / (v1 - v0 || 1)) * (height - 2 * pad);
  const line = document.createElementNS(NS, 'polyline');
  // a step line: a balance holds its value until the next transaction
  /** @type {string[]} */
  const coords = [];
  points.forEach((p, i) => {
    if (i > 0) coords.push(`${x(p.date.getTime())},${y(points[i - 1].value)}`);
    coords.push(`${x(p.date.getTime())},${y(p.value)}`);
  });
  line.setAttribute('points', coords.join(' '));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '2');
  svg.append(line);
  for (const [text, yy] of /** @type {const} */ ([[String(v1), pad], [String(v0), height - pad]])) {
    const t = document.createElementNS(NS, 'text');
    t.setAttribute('x', '2');
    t.setAttribute('y', String(yy));
    t.textContent = text;
    svg.append(t);
  }
  return svg;
}

/**
 * Amounts per bucket as grouped bars, one colour per key (console.css: .bar-<key>), oldest bucket
 * first: `series` [{ start, <key>: number }]. The axis shows 0, the largest value, and the first
 * and last bucket.
 */
/**
 * @template {string} K
 * @param {({ start: string } & Record<NoInfer<K>, number>)[]} series
 * @param {readonly K[]} keys
 * @param {{ width?: number, height?: number, label?: string }} [size]
 */
export function seriesChart(series, keys, { width = 960, height = 260, label = 'Series' } = {}) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'img');
  svg.classList.add('chart', 'series-chart');
  const padLeft = 48;
  const padBottom = 24;
  const top = 12;
  const values = series.flatMap((bucket) => keys.map((key) => Number(bucket[key])));
  const max = Math.max(0, ...values);
  svg.setAttribute('aria-label', `${label}: ${series.length} buckets, largest ${max}`);
  const slot = (width - padLeft) / Math.max(series.length, 1);
  const bar = Math.max(1, (slot * 0.8) / keys.length);
  // a day bucket by its date, an hour bucket by its date and hour (UTC, as the API aligns them)
  const when = (/** @type {string} */ iso) => (iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 13).replace('T', ' ')}h`);
  const y = (/** @type {number} */ v) => height - padBottom - (max ? (v / max) * (height - padBottom - top) : 0);
  /** @type {(tag: string, attrs: Record<string, string | number>, text?: string) => SVGElement} */
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(NS, tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  add('line', { x1: padLeft, x2: width, y1: y(0), y2: y(0), class: 'axis' });
  series.forEach((bucket, i) => {
    keys.forEach((key, k) => {
      const value = Number(bucket[key]);
      if (!value) return;
      const rect = add('rect', { x: padLeft + i * slot + slot * 0.1 + k * bar, y: y(value), width: bar, height: y(0) - y(value), class: `bar bar-${key}` });
      const title = document.createElementNS(NS, 'title');
      title.textContent = `${when(bucket.start)} ${key}: ${value}`;
      rect.append(title);
    });
  });
  add('text', { x: padLeft - 4, y: top + 4, 'text-anchor': 'end' }, String(max));
  add('text', { x: padLeft - 4, y: y(0), 'text-anchor': 'end' }, '0');
  if (series.length) {
    add('text', { x: padLeft, y: height - 6 }, when(series[0].start));
    add('text', { x: width, y: height - 6, 'text-anchor': 'end' }, when(series[series.length - 1].start));
  }
  return svg;
}
