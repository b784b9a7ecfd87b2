// A project's holds (CONTRACT §10), newest first, filtered by status and wallet, with capture and
// void on the pending ones and a form for a new hold.
import { rest } from './api.js';
import { button, el, failure, flashLine, heading, loading, noProject, notice, time } from './dom.js';
import { openMoneyForm } from './forms.js';
import { dataTable } from './table.js';
/** @import { MoneyResult } from './forms.js' */
/** @import { Answer, Ctx, Hold } from './types.js' */

const STATUSES = ['', 'pending', 'captured', 'voided', 'expired'];
const PAGE_SIZE = 50;

/**
 * @param {HTMLElement} view
 * @param {Ctx} ctx
 */
export function mount(view, ctx) {
  if (!ctx.project) return void view.append(heading('Holds'), noProject());
  const flash = flashLine();
  const list = el('div', {}, loading('holds'));
  const state = { status: 'pending', walletId: '', page: 1 };
  const done = (/** @type {string} */ what) => async (/** @type {MoneyResult} */ result) => { flash.say(`${what}: ${result.hold?.id ?? result.id}`); await load(); };
  const status = el('select', { id: 'hold-status', onchange: () => { state.status = status.value; state.page = 1; void load(); } }, STATUSES.map((s) => el('option', { value: s, selected: s === state.status }, s || 'any')));
  const wallet = el('input', { id: 'hold-wallet', type: 'search', placeholder: 'id or address' });
  const filters = el('form', { class: 'toolbar', 'aria-label': 'Filter holds', onsubmit: (e) => { e.preventDefault(); state.walletId = wallet.value.trim(); state.page = 1; void load(); } },
    el('label', { for: 'hold-status' }, 'Status'), status, el('label', { for: 'hold-wallet' }, 'Wallet'), wallet, el('button', { type: 'submit' }, 'Filter'));
  view.append(heading('Holds', button('Hold…', () => openMoneyForm('hold', ctx.projectId, {}, done('Hold created')), { class: 'primary' })), flash, filters, list);

  async function load() {
    try {
      /** @type {Answer<'listHolds'>} */
      const { holds, pagination } = await rest('GET', '/holds', { query: { projectId: ctx.projectId, status: state.status, walletId: state.walletId, page: state.page, limit: PAGE_SIZE } });
      list.replaceChildren(
        dataTable({
          columns: [
            { key: 'created_at', label: 'Created', render: (h) => time(h.created_at) },
            { key: 'from', label: 'From' },
            { key: 'to', label: 'To' },
            { key: 'amount', label: 'Amount', num: true },
            { key: 'currency', label: 'Currency' },
            { key: 'status', label: 'Status', render: (h) => el('span', { class: `badge status-${h.status}` }, h.status), field: () => 'status' },
            { key: 'capturedAmount', label: 'Captured', num: true },
            { key: 'expires_at', label: 'Expires', render: (h) => (h.expires_at ? time(h.expires_at) : 'never') },
            { key: 'actions', label: 'Actions', value: () => '', render: (h) => actions(h) },
          ],
          rows: holds,
          rowAttrs: (h) => ({ 'data-hold': h.id }),
          empty: notice('empty', `No ${state.status ? `${state.status} ` : ''}holds${state.walletId ? ` of ${state.walletId}` : ''}`, 'A hold reserves a sender’s funds until it is captured, voided or expires.'),
        }),
        pagination.totalPages > 1
          ? el('nav', { class: 'pager', 'aria-label': 'Hold pages' },
              button('Previous', () => { state.page--; void load(); }, { disabled: state.page === 1 }),
              el('span', {}, ` page ${state.page} of ${pagination.totalPages} `),
              button('Next', () => { state.page++; void load(); }, { disabled: state.page >= pagination.totalPages }))
          : '',
      );
    } catch (error) {
      list.replaceChildren(failure(error, 'Holds'));
    }
  }

  /** @param {Hold} hold */
  function actions(hold) {
    if (hold.status !== 'pending') return hold.transactionId ? el('a', { href: `#/transactions/${hold.transactionId}` }, 'Transaction') : '';
    return el('span', { class: 'row-actions' },
      button('Capture…', () => openMoneyForm('capture', ctx.projectId, { holdId: hold.id }, done('Captured')), { 'aria-label': `Capture hold ${hold.id}` }),
      button('Void…', () => openMoneyForm('void', ctx.projectId, { holdId: hold.id }, done('Voided')), { 'aria-label': `Void hold ${hold.id}` }));
  }
  void load();
}
