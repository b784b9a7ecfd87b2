// Project-wide transaction search (CONTRACT §21): every filter of GET /transactions/search, pages
// by its opaque cursor, results sortable on the page. #/transactions/<id> is
// one transaction (view-transaction.js).
import { rest } from './api.js';
import { button, el, failure, heading, loading, noProject, notice, time } from './dom.js';
import { dataTable } from './table.js';
/** @import { Answer, Ctx, Transaction } from './types.js' */

const FILTERS = [
  ['walletId', 'Wallet (id or address, either side)'],
  ['from', 'From (address, or @mint)'],
  ['to', 'To (address, or @expired)'],
  ['currency', 'Currency'],
  ['minAmount', 'Min amount'],
  ['maxAmount', 'Max amount'],
  ['since', 'Since (date ≥)', 'datetime-local'],
  ['until', 'Until (date <)', 'datetime-local'],
  ['reference', 'Reference (exact)'],
  ['referencePrefix', 'Reference starts with'],
  ['reverses', 'Reversals of (transaction id)'],
];

/**
 * @param {HTMLElement} view
 * @param {Ctx} ctx
 */
export function mount(view, ctx) {
  view.append(heading('Transactions'));
  if (!ctx.project) return void view.append(noProject());
  const results = el('div', {});
  const form = filterForm((query) => search(query, results, ctx));
  view.append(form, results);
  void search({}, results, ctx);
}

/** @param {(query: Record<string, string>) => void} onSearch */
function filterForm(onSearch) {
  const fields = FILTERS.map(([name, label, type]) => el('div', { class: 'field' }, el('label', { for: `filter-${name}` }, label), el('input', { id: `filter-${name}`, name, type: type ?? 'text', step: type ? '1' : null })));
  const metadata = el('div', { class: 'field wide' }, el('label', { for: 'filter-metadata' }, 'Metadata (key=value, one pair per line)'), el('textarea', { id: 'filter-metadata', name: 'metadata', rows: '2' }));
  const form = el('form', { class: 'filters panel', 'aria-label': 'Search transactions' },
    el('details', { open: window.matchMedia('(min-width: 900px)').matches },
      el('summary', {}, 'Filters'),
      el('div', { class: 'filter-grid' }, fields, metadata)),
    el('div', { class: 'dialog-actions' }, el('button', { type: 'reset' }, 'Clear'), el('button', { type: 'submit', class: 'primary' }, 'Search')));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    /** @type {Record<string, string>} */
    const query = {};
    const text = (/** @type {string} */ name) => /** @type {HTMLInputElement | HTMLTextAreaElement} */ (form.elements.namedItem(name)).value;
    for (const [name, , type] of FILTERS) {
      const value = text(name).trim();
      if (value) query[name] = type === 'datetime-local' ? new Date(value).toISOString() : value;
    }
    for (const line of text('metadata').split('\n')) {
      const at = line.indexOf('=');
      if (at > 0) query[`metadata.${line.slice(0, at).trim()}`] = line.slice(at + 1).trim();
    }
    onSearch(query);
  });
  return form;
}

/**
 * @param {Record<string, string>} query
 * @param {HTMLElement} results
 * @param {Ctx} ctx
 */
async function search(query, results, ctx) {
  results.replaceChildren(loading('transactions'));
  /** @type {Transaction[]} */
  const rows = [];
  const more = button('Load more', () => void page(), { class: 'more' });
  const count = el('p', { class: 'muted', role: 'status' });
  const table = el('div', {});
  /** @param {string} [after] */
  async function page(after) {
    try {
      more.disabled = true;
      /** @type {Answer<'searchTransactions'>} */
      const answer = await rest('GET', '/transactions/search', { query: { projectId: ctx.projectId, ...query, limit: 50, after: after ?? cursor } });
      rows.push(...answer.transactions);
      cursor = answer.pagination.nextAfter;
      more.hidden = !answer.pagination.hasMore;
      more.disabled = false;
      count.textContent = `${rows.length} transaction${rows.length === 1 ? '' : 's'}${answer.pagination.hasMore ? ' so far' : ''}, newest first`;
      table.replaceChildren(transactionTable(rows, Object.keys(query).length ? notice('empty', 'No transaction matches', 'Loosen a filter or clear them.') : notice('empty', 'No transactions yet', 'Seed a system wallet, then transfer to a customer.', el('a', { href: '#/wallets' }, 'Move money'))));
      results.replaceChildren(count, table, more);
    } catch (error) {
      results.replaceChildren(failure(error, 'Transactions'));
    }
  }
  /** @type {string | null | undefined} the next page's `after` */
  let cursor;
  await page();
}

/**
 * @param {Transaction[]} rows
 * @param {Node} empty
 */
export function transactionTable(rows, empty) {
  return dataTable({
    columns: [
      { key: 'date', label: 'Date', render: (t) => time(t.date) },
      { key: 'from', label: 'From' },
      { key: 'to', label: 'To' },
      { key: 'amount', label: 'Amount', num: true },
      { key: 'currency', label: 'Currency' },
      { key: 'reference', label: 'Reference' },
      { key: 'id', label: 'Transaction', render: (t) => el('a', { href: `#/transactions/${t.id}`, 'aria-label': `Open transaction ${t.id}` }, t.id.slice(0, 8)) },
    ],
    rows,
    rowAttrs: (t) => ({ 'data-transaction': t.id }),
    empty,
  });
}
