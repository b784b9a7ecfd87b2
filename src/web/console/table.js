// A table with sortable columns and an empty state. The rows are already loaded (one page of the
// API); sorting reorders that page in the browser and says so (aria-sort).
import { el } from './dom.js';
/** @import { Attrs, Column, Sort } from './types.js' */

/**
 * `columns`: [{ key, label, num?, value?(row), render?(row) }] — `value` is what sorts (default
 * row[key]), `render` what shows (default the value). `rowAttrs(row)` adds attributes to a row;
 * `onSort(sort)` lets a view keep the order across its re-reads (pass it back as `sort`).
 * @template {object} R
 * @param {{ columns: Column<R>[], rows: R[], empty: Node, caption?: string, className?: string,
 *   rowAttrs?: (row: R) => Attrs, sort?: Sort | null, onSort?: (sort: Sort) => void }} table
 * @returns {Node}
 */
export function dataTable({ columns, rows, empty, caption, className = '', rowAttrs = () => ({}), sort: initial = null, onSort }) {
  if (rows.length === 0) return empty;
  let sort = initial;
  /** @type {(column: Column<R>, row: R) => unknown} */
  const valueOf = (column, row) => (column.value ? column.value(row) : /** @type {Record<string, unknown>} */ (row)[column.key]);
  const wrap = el('div', { class: 'table-wrap' });
  const draw = () => {
    const current = sort;
    const column = current && columns.find((c) => c.key === current.key);
    const ordered = column && current ? [...rows].sort((a, b) => compare(valueOf(column, a), valueOf(column, b)) * current.dir) : rows;
    const head = columns.map((c) => {
      const dir = current?.key === c.key ? (current.dir === 1 ? 'ascending' : 'descending') : 'none';
      return el('th', { scope: 'col', 'aria-sort': dir, class: c.num ? 'num' : null },
        el('button', { type: 'button', class: 'sort', onclick: () => { sort = { key: c.key, dir: current?.key === c.key && current.dir === 1 ? -1 : 1 }; onSort?.(sort); draw(); } }, c.label, el('span', { class: 'sort-mark', 'aria-hidden': 'true' }, MARKS[dir])));
    });
    const body = ordered.map((row) => el('tr', rowAttrs(row), columns.map((c) => el('td', { class: c.num ? 'num' : null, 'data-label': c.label, 'data-field': c.field?.(row) ?? null }, c.render ? c.render(row) : String(valueOf(c, row) ?? '')))));
    wrap.replaceChildren(el('table', { class: `data ${className}`.trim() }, caption ? el('caption', {}, caption) : null, el('thead', {}, el('tr', {}, head)), el('tbody', {}, body)));
  };
  draw();
  return wrap;
}

// the order shown beside the label, outside its accessible name (aria-sort says it)
const MARKS = { ascending: ' ▲', descending: ' ▼', none: '' };

/** @type {(a: unknown, b: unknown) => number} */
function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined || a === '') return 1;
  if (b === null || b === undefined || b === '') return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}
