// A balance-over-time line as plain SVG: no chart library, nothing loaded from elsewhere.
const NS = 'http://www.w3.org/2000/svg';

/** `points`: [{ date: Date, value: number }] oldest first. */
export function balanceChart(points, { width = 560, height = 180, label = 'Balance over time' } = {}) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', points.length ? `${label}: from ${points[0].value} to ${points.at(-1).value}` : `${label}: no transactions`);
  svg.classList.add('chart');
  if (points.length === 0) return svg;
  const pad = 32;
  const times = points.map((p) => p.date.getTime());
  const values = points.map((p) => p.value);
  const [t0, t1] = [Math.min(...times), Math.max(...times)];
  const [v0, v1] = [Math.min(0, ...values), Math.max(...values)];
  const x = (t) => pad + ((t - t0) / (t1 - t0 || 1)) * (width - 2 * pad);
  const y = (v) => height - pad - ((v - v0) / (v1 - v0 || 1)) * (height - 2 * pad);
  const line = document.createElementNS(NS, 'polyline');
  // a step line: a balance holds its value until the next transaction
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
  for (const [text, yy] of [[String(v1), pad], [String(v0), height - pad]]) {
    const t = document.createElementNS(NS, 'text');
    t.setAttribute('x', '2');
    t.setAttribute('y', String(yy));
    t.textContent = text;
    svg.append(t);
  }
  return svg;
}
