// The balance monitors that watch a wallet (CONTRACT §20): its own and the project's (every
// customer wallet), with forms to add and delete them. A crossing shows up in the events feed.
import { ApiError, rest } from './api.js';
import { confirmAction, openForm } from './dialog.js';
import { button, el, failure, loading, notice, time } from './dom.js';
import { dataTable } from './table.js';
/** @import { Answer, BalanceMonitor, Ctx, GqlWallet } from './types.js' */

/** @type {Record<BalanceMonitor['operator'], string>} */
const OPERATORS = { lt: '<', lte: '≤', gt: '>', gte: '≥' };

/**
 * @param {Ctx} ctx
 * @param {GqlWallet} wallet
 */
export function monitorsPanel(ctx, wallet) {
  const body = el('div', {}, loading('monitors'));
  const add = button('Add monitor…', () => newMonitor(ctx, wallet, load));
  const panel = el('section', { class: 'panel', id: 'monitors', 'aria-labelledby': 'monitors-title' }, el('div', { class: 'panel-head' }, el('h3', { id: 'monitors-title' }, 'Balance monitors'), el('div', { class: 'actions' }, add)), body);

  async function load() {
    try {
      const query = { projectId: ctx.projectId, limit: 100 };
      // the wallet's own monitors, and for a customer wallet the project-wide ones (walletId null)
      /** @type {Answer<'listBalanceMonitors'>[]} */
      const [own, all] = await Promise.all([rest('GET', '/balance-monitors', { query: { ...query, walletId: wallet.id } }), wallet.type === 'CUSTOMER' ? rest('GET', '/balance-monitors', { query }) : { monitors: [] }]);
      const monitors = [...own.monitors, ...all.monitors.filter((m) => m.walletId === null)];
      body.replaceChildren(dataTable({
        columns: [
          { key: 'scope', label: 'Watches', value: (m) => (m.walletId ? 'this wallet' : 'every customer wallet') },
          { key: 'condition', label: 'Fires when', value: (m) => `${m.currency} ${m.field} ${OPERATORS[m.operator]} ${m.value}` },
          { key: 'created_at', label: 'Created', render: (m) => time(m.created_at) },
          { key: 'actions', label: 'Actions', value: () => '', render: (m) => button('Delete', () => deleteMonitor(m, load), { 'aria-label': `Delete the monitor ${m.field} ${m.operator} ${m.value}` }) },
        ],
        rows: monitors,
        rowAttrs: (m) => ({ 'data-monitor': m.id }),
        empty: notice('empty', 'No monitor', 'Add one to get a balance.threshold_crossed event when a balance crosses a value.'),
      }));
    } catch (error) {
      add.disabled = error instanceof ApiError && error.unavailable;
      body.replaceChildren(failure(error, 'Monitors'));
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
function newMonitor(ctx, wallet, done) {
  openForm({
    id: 'new-monitor',
    title: 'Add a balance monitor',
    submitLabel: 'Add monitor',
    fields: [
      { name: 'scope', label: 'Watches', type: 'select', options: [['wallet', `this wallet (${wallet.address})`], ['project', 'every customer wallet of the project']] },
      { name: 'currency', label: 'Currency', type: 'select', options: wallet.balances.map((b) => [b.currency, b.currency]) },
      { name: 'field', label: 'Value', type: 'select', options: [['balance', 'balance'], ['available', 'available (balance − held)']] },
      { name: 'operator', label: 'Fires when it becomes', type: 'select', options: Object.entries(OPERATORS).map(([op, sign]) => [op, `${sign} (${op})`]) },
      { name: 'value', label: 'Threshold (major units)', required: true, inputmode: 'decimal' },
    ],
    onSubmit: async (v) => {
      /** @type {Record<string, unknown>} */
      const body = { projectId: ctx.projectId, currency: v.currency, field: v.field, operator: v.operator, value: Number(v.value) };
      if (v.scope === 'wallet') body.walletId = wallet.id;
      await rest('POST', '/balance-monitors', { body });
      await done();
    },
  });
}

/**
 * @param {BalanceMonitor} monitor
 * @param {() => Promise<void>} done
 */
function deleteMonitor(monitor, done) {
  confirmAction({
    id: 'delete-monitor',
    title: 'Delete this monitor?',
    text: `${monitor.currency} ${monitor.field} ${OPERATORS[monitor.operator]} ${monitor.value}.`,
    confirmLabel: 'Delete monitor',
    onConfirm: async () => {
      await rest('DELETE', `/balance-monitors/${monitor.id}`);
      await done();
    },
  });
}
