// A wallet's spending and earning limits (CONTRACT §19): the ones that apply to it now, with what
// is used and what remains in their window, and forms to add and delete them.
import { ApiError, rest } from './api.js';
import { confirmAction, openForm } from './dialog.js';
import { button, duration, el, failure, loading, notice } from './dom.js';
import { dataTable } from './table.js';
/** @import { Answer, Ctx, GqlWallet, LimitUsage } from './types.js' */

/** @type {Record<string, number>} */
export const WINDOW_UNITS = { minutes: 60, hours: 3600, days: 86400 };

/**
 * @param {Ctx} ctx
 * @param {GqlWallet} wallet
 */
export function limitsPanel(ctx, wallet) {
  const body = el('div', {}, loading('limits'));
  const add = button('Add limit…', () => newLimit(ctx, wallet, load));
  const panel = el('section', { class: 'panel', id: 'limits', 'aria-labelledby': 'limits-title' }, el('div', { class: 'panel-head' }, el('h3', { id: 'limits-title' }, 'Limits'), el('div', { class: 'actions' }, add)), body);

  async function load() {
    try {
      /** @type {Answer<'getWalletLimits'>} */
      const { limits } = await rest('GET', `/wallets/${wallet.id}/limits`);
      body.replaceChildren(dataTable({
        columns: [
          { key: 'scope', label: 'Applies to', value: (l) => (l.walletId ? 'this wallet' : 'every customer wallet') },
          { key: 'currency', label: 'Currency' },
          { key: 'direction', label: 'Direction', value: (l) => (l.direction === 'debit' ? 'spending (debit)' : 'earning (credit)') },
          { key: 'amount', label: 'Limit', num: true },
          { key: 'windowSeconds', label: 'Window', render: (l) => duration(l.windowSeconds) },
          { key: 'used', label: 'Used', num: true, render: (l) => el('span', {}, String(l.used), ' ', el('meter', { min: '0', max: String(l.amount), value: String(l.used), high: String(l.amount * 0.8), title: `${l.used} of ${l.amount}` })) },
          { key: 'remaining', label: 'Remaining', num: true, field: () => 'remaining' },
          { key: 'actions', label: 'Actions', value: () => '', render: (l) => button('Delete', () => deleteLimit(l, load), { 'aria-label': `Delete the ${l.direction} limit of ${l.amount} ${l.currency}` }) },
        ],
        rows: limits,
        rowAttrs: (l) => ({ 'data-limit': l.id }),
        empty: notice('empty', 'No limit applies', 'Movements of this wallet are not capped.'),
      }));
    } catch (error) {
      add.disabled = error instanceof ApiError && error.unavailable;
      body.replaceChildren(failure(error, 'Limits'));
    }
  }
  void load();
  return panel;
}

/**
 * @param {Ctx} ctx
 * @param {GqlWallet} wallet
 * @param {() => Promise<void>} done
 */
function newLimit(ctx, wallet, done) {
  openForm({
    id: 'new-limit',
    title: 'Add a limit',
    submitLabel: 'Add limit',
    fields: [
      { name: 'scope', label: 'Applies to', type: 'select', options: [['wallet', `this wallet (${wallet.address})`], ['project', 'every customer wallet of the project']] },
      { name: 'currency', label: 'Currency', type: 'select', options: wallet.balances.map((b) => [b.currency, b.currency]) },
      { name: 'direction', label: 'Direction', type: 'select', options: [['debit', 'spending (money leaving)'], ['credit', 'earning (money arriving)']] },
      { name: 'amount', label: 'At most (major units)', required: true, inputmode: 'decimal' },
      { name: 'window', label: 'Per window of', type: 'number', min: '1', step: '1', value: '1', required: true },
      { name: 'unit', label: 'Unit', type: 'select', value: 'days', options: Object.keys(WINDOW_UNITS).map((u) => [u, u]) },
    ],
    onSubmit: async (v) => {
      /** @type {Record<string, unknown>} */
      const body = { projectId: ctx.projectId, currency: v.currency, direction: v.direction, amount: Number(v.amount), windowSeconds: Number(v.window) * WINDOW_UNITS[String(v.unit)] };
      if (v.scope === 'wallet') body.walletId = wallet.id;
      await rest('POST', '/limits', { body });
      await done();
    },
  });
}

/**
 * @param {LimitUsage} limit
 * @param {() => Promise<void>} done
 */
function deleteLimit(limit, done) {
  confirmAction({
    id: 'delete-limit',
    title: 'Delete this limit?',
    text: `${limit.direction} at most ${limit.amount} ${limit.currency} per ${duration(limit.windowSeconds)}${limit.walletId ? '' : ', for every customer wallet of the project'}.`,
    confirmLabel: 'Delete limit',
    onConfirm: async () => {
      await rest('DELETE', `/limits/${limit.id}`);
      await done();
    },
  });
}
