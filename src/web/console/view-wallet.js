// One wallet: its balances (live, with its credit lines and `incoming`), status control, balance
// chart and history, its pending points (wallet-pending.js), and the credit line, limits and
// balance monitors that apply to it.
import { ApiError, apiKey, errorText, gql, rest } from './api.js';
import { balanceChart } from './chart.js';
import { code, el, failure, heading, loading, time } from './dom.js';
import { liveWallets } from './live.js';
import { dataTable } from './table.js';
import { BALANCE_FIELDS } from './view-wallets.js';
import { limitsPanel } from './wallet-limits.js';
import { monitorsPanel } from './wallet-monitors.js';
import { creditPanel } from './wallet-credit.js';
import { pendingPanel } from './wallet-pending.js';
/** @import { Ctx, GqlBalance, GqlWalletWithHistory } from './types.js' */

const STATUSES = ['active', 'suspended', 'closed'];
/** The balance columns here: the list's, and the points pending to the wallet (CONTRACT §26). */
const FIELDS = /** @type {const} */ ([...BALANCE_FIELDS, 'incoming']);

/**
 * @param {HTMLElement} view
 * @param {Ctx} ctx
 */
export function mount(view, ctx) {
  const id = ctx.params[0];
  const summary = el('div', { id: 'wallet', 'aria-live': 'polite' }, loading('the wallet'));
  const extras = el('div', { class: 'grid-2' });
  const activity = el('div', { id: 'wallet-activity' });
  view.append(el('p', { class: 'crumbs' }, el('a', { href: '#/wallets' }, '← Wallets')), summary, extras, activity);

  let first = true;
  /** @type {ReturnType<typeof pendingPanel> | null} */
  let pending = null;
  async function load() {
    try {
      /** @type {{ wallet: GqlWalletWithHistory | null }} */
      const data = await gql(
        `query($id: ID!) { wallet(id: $id) { id address type status createdAt balances { currency ${FIELDS.join(' ')} creditLimit }
           transactions(first: 100) { edges { node { id amount currency from to date balance } } } } }`,
        { id },
      );
      const wallet = data.wallet;
      if (!wallet) throw new ApiError('not_found', 'No wallet with this id in your projects.', {}, 404);
      draw(wallet);
      if (first) {
        pending = pendingPanel(ctx, wallet);
        extras.replaceChildren(creditPanel(ctx, wallet, load), pending, limitsPanel(ctx, wallet), monitorsPanel(ctx, wallet));
      } else {
        await pending?.refresh(); // a change of the wallet (a hold to it created, captured or voided) moves its pending points
      }
      first = false;
    } catch (error) {
      summary.replaceChildren(failure(error, 'The wallet'));
    }
  }

  // the status form stays in place across re-reads (a live change must not reset a choice being made)
  const facts = el('div', {});
  const balances = el('div', {});
  /** @type {{ form: HTMLFormElement, show: (status: string) => void } | null} */
  let status = null;

  /** @param {GqlWalletWithHistory} wallet */
  function draw(wallet) {
    const history = wallet.transactions.edges.map((e) => e.node);
    const currency = wallet.balances[0]?.currency;
    const points = history.filter((t) => t.currency === currency).reverse().map((t) => ({ date: new Date(t.date), value: Number(t.balance) }));
    if (!status) {
      status = statusControl(wallet.id);
      summary.replaceChildren(facts, status.form, balances);
    }
    status.show(wallet.status.toLowerCase());
    facts.replaceChildren(
      heading(`Wallet ${wallet.address}`),
      el('dl', { class: 'facts' },
        el('dt', {}, 'Id'), el('dd', {}, code(wallet.id)),
        el('dt', {}, 'Type'), el('dd', {}, wallet.type.toLowerCase()),
        el('dt', {}, 'Status'), el('dd', { 'data-field': 'status' }, el('span', { class: `badge status-${wallet.status.toLowerCase()}` }, wallet.status.toLowerCase())),
        el('dt', {}, 'Created'), el('dd', {}, time(wallet.createdAt))));
    balances.replaceChildren(
      dataTable({
        caption: 'Balances',
        className: 'balances',
        columns: [
          { key: 'currency', label: 'Currency' },
          ...FIELDS.map((f) => ({ key: f, label: f, num: true, value: (/** @type {GqlBalance} */ b) => Number(b[f] ?? 0), render: (/** @type {GqlBalance} */ b) => b[f] ?? '', field: () => f })),
          { key: 'creditLimit', label: 'credit line', num: true, value: (/** @type {GqlBalance} */ b) => Number(b.creditLimit ?? 0), render: (/** @type {GqlBalance} */ b) => b.creditLimit ?? '0', field: () => 'creditLimit' },
        ],
        rows: wallet.balances,
        empty: el('p', { class: 'muted' }, 'The project has no asset yet.'),
      }));
    activity.replaceChildren(
      el('figure', { class: 'panel' }, balanceChart(points, { label: `${currency ?? ''} balance over time` }), el('figcaption', {}, `${currency ?? ''} balance over time (last ${points.length} transactions)`)),
      dataTable({
        caption: 'History, newest first',
        className: 'history',
        columns: [
          { key: 'date', label: 'Date', render: (t) => time(t.date) },
          { key: 'from', label: 'From' },
          { key: 'to', label: 'To' },
          { key: 'amount', label: 'Amount', num: true, value: (t) => Number(t.amount), render: (t) => t.amount },
          { key: 'currency', label: 'Currency' },
          { key: 'balance', label: 'Balance after', num: true, value: (t) => Number(t.balance), render: (t) => t.balance ?? '' },
          { key: 'id', label: 'Transaction', render: (t) => el('a', { href: `#/transactions/${t.id}` }, t.id.slice(0, 8)) },
        ],
        rows: history,
        empty: el('p', { class: 'muted' }, 'No transactions yet.'),
      }),
    );
  }

  /**
   * The status select and its button; `show(status)` follows the wallet's status when it changes.
   * @param {string} walletId
   */
  function statusControl(walletId) {
    const select = el('select', { id: 'wallet-status' }, STATUSES.map((s) => el('option', { value: s }, s)));
    const button = el('button', { type: 'submit' }, 'Change status');
    const hint = el('small', { class: 'hint' });
    const result = el('output', { id: 'wallet-status-result', class: 'result', 'aria-live': 'polite' });
    const form = el('form', { class: 'inline-form', 'aria-label': 'Wallet status' }, el('label', { for: 'wallet-status' }, 'Status'), select, button, hint, result);
    /** @type {string | null} */
    let shown = null;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      result.className = 'result';
      result.textContent = 'Sending…';
      try {
        await rest('PUT', `/wallets/status/${walletId}`, { body: { projectId: ctx.projectId, status: select.value } });
        result.textContent = '';
        await load();
      } catch (error) {
        result.className = 'result error';
        result.textContent = errorText(error);
      }
    });
    const show = (/** @type {string} */ current) => {
      if (current === shown) return;
      shown = current;
      select.value = current;
      select.disabled = button.disabled = current === 'closed';
      hint.textContent = current === 'closed' ? 'A closed wallet stays closed.' : 'Closing needs every balance at zero and no pending hold.';
    };
    return { form, show };
  }

  const live = liveWallets({ apiKey, onWallet: () => void load(), onState: () => {} });
  void load().then(() => live.watch([id]));
  return () => live.stop();
}
