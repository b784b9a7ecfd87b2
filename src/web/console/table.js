// A table with sortable columns and an empty state. The rows are already loaded (one page of the
// API); sorting reorders that page in the browser and says so (aria-sort).
import { el } from './console-dom.js';

/**
 * `columns`: [{ key, label, num?, value?(row), render?(row) }] — `value` is what sorts (default
 * row[key]), `render` what shows (default the value). `rowAttrs(row)` adds attributes to a row;
 * `onSort(sort)` lets a view keep the order across its re-reads (pass it back as `sort`).
 */
export function dataTable({ columns, rows, empty, caption, className = '', rowAttrs = () => ({}), sort: initial = null, onSort }) {
  if (rows.length === 0) return empty;
  let sort = initial; // { key, dir: 1 | -1 }
  const valueOf = (column, row) => (column.value ? column.value(row) : row[column.key]);
  const wrap = el('div', { class: 'table-wrap' });
  const draw = () => {
    const column = sort && columns.find((c) => c.key === sort.key);
    const ordered = column ? [...rows].sort((a, b) => compare(valueOf(column, a), valueOf(column, b)) * sort.dir) : rows;
    const head = columns.map((c) => {
      const dir = sort?.key === c.key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none';
      return el('th', { scope: 'col', 'aria-sort': dir, class: c.num ? 'num' : null },
        el('button', { type: 'button', class: 'sort', onclick: () => { sort = { key: c.key, dir: sort?.key === c.key ? -sort.dir : 1 }; onSort?.(sort); draw(); } }, c.label, el('span', { class: 'sort-mark', 'aria-hidden': 'true' }, MARKS[dir])));
    });
    const body = ordered.map((row) => el('tr', rowAttrs(row), columns.map((c) => el('td', { class: c.num ? 'num' : null, 'data-label': c.label, 'data-field': c.field?.(row) ?? null }, c.render ? c.render(row) : String(valueOf(c, row) ?? '')))));
    wrap.replaceChildren(el('table', { class: `data ${className}`.trim() }, caption ? el('caption', {}, caption) : null, el('thead', {}, el('tr', {}, head)), el('tbody', {}, body)));
  };
  draw();
  return wrap;
}

// the order shown beside the label, outside its accessible name (aria-sort says it)
const MARKS = { ascending: ' ▲', descending: ' ▼', none: '' };

function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined || a === '') return 1;
  if (b === null || b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}
