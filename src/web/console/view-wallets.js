// The project's wallets with their balances, live (walletChanged), searchable on the page, and
// the money moves (transfer, seed, hold) in dialogs. #/wallets/<id> is one wallet
// (view-wallet.js).
import { apiKey, gql } from './api.js';
import { button, el, failure, flashLine, heading, loading, noProject, notice } from './dom.js';
import { openMoneyForm } from './forms.js';
import { liveWallets } from './live.js';
import { dataTable } from './table.js';
/** @import { MoneyResult } from './forms.js' */
/** @import { Column, Ctx, GqlWallet, GqlWalletChange, Sort } from './types.js' */

export const BALANCE_FIELDS = /** @type {const} */ (['balance', 'held', 'available']);
const PAGE_SIZE = 20;
// Without a live subscription the page is re-read this often; with one, only rarely (new wallets emit no event).
const POLL_MS = 3000;
const LIVE_POLL_MS = 30000;

/**
 * @param {HTMLElement} view
 * @param {Ctx} ctx
 */
export function mount(view, ctx) {
  if (!ctx.project) return void view.append(heading('Wallets'), noProject());
  /** @type {{ cursors: (string | null | undefined)[], page: number, wallets: GqlWallet[], total: number, search: string, sort: Sort | null }} */
  const state = { cursors: [null], page: 0, wallets: [], total: 0, search: '', sort: null };
  const flash = flashLine();
  const liveNote = el('p', { id: 'live', role: 'status', class: 'muted' });
  const list = el('div', {}, loading('wallets'));
  const moved = (/** @type {string} */ what) => async (/** @type {MoneyResult} */ result) => { flash.say(`${what} done: ${result.id}`); await load(); };
  const primary = () => ({ currency: symbolOf(state.wallets) });
  view.append(
    heading('Wallets',
      button('Transfer…', () => openMoneyForm('transfer', ctx.projectId, primary(), moved('Transfer')), { class: 'primary' }),
      button('Seed…', () => openMoneyForm('seed', ctx.projectId, primary(), moved('Seed'))),
      button('Hold…', () => openMoneyForm('hold', ctx.projectId, primary(), moved('Hold')))),
    flash, liveNote, list);

  const showLive = (/** @type {boolean} */ connected) => (liveNote.textContent = connected ? 'Live: balances update as they change.' : `Balances refresh every ${POLL_MS / 1000} s.`);
  const live = liveWallets({ apiKey, onWallet: (wallet) => applyChange(wallet), onState: showLive });
  showLive(false);

  async function load() {
    try {
      /** @type {{ wallets: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: { node: GqlWallet }[] } }} */
      const data = await gql(
        `query($projectId: ID!, $first: Int!, $after: String) { wallets(projectId: $projectId, first: $first, after: $after) {
           totalCount pageInfo { hasNextPage endCursor }
           edges { node { id address type status balances { currency ${BALANCE_FIELDS.join(' ')} } } } } }`,
        { projectId: ctx.projectId, first: PAGE_SIZE, after: state.cursors[state.page] },
      );
      state.wallets = data.wallets.edges.map((e) => e.node);
      state.total = data.wallets.totalCount;
      state.cursors[state.page + 1] = data.wallets.pageInfo.hasNextPage ? data.wallets.pageInfo.endCursor : undefined;
      lastRead = Date.now();
      draw();
      live.watch(state.wallets.map((w) => w.id));
    } catch (error) {
      list.replaceChildren(failure(error, 'Wallets'));
    }
  }

  /**
   * A walletChanged message: the row's cells change in place (the search box keeps its focus).
   * @param {GqlWalletChange} wallet
   */
  function applyChange(wallet) {
    const known = state.wallets.find((w) => w.id === wallet.id);
    if (known) Object.assign(known, { status: wallet.status, balances: wallet.balances });
    const row = list.querySelector(`tr[data-wallet="${wallet.id}"]`);
    if (!row) return;
    const status = row.querySelector('td[data-field="status"]');
    if (status) status.textContent = wallet.status.toLowerCase();
    for (const b of wallet.balances) {
      for (const f of BALANCE_FIELDS) {
        const cell = row.querySelector(`td[data-field="${b.currency}.${f}"]`);
        if (cell) cell.textContent = b[f] ?? '';
      }
    }
  }

  function draw() {
    const search = el('input', { id: 'wallet-search', type: 'search', value: state.search, oninput: () => { state.search = search.value; draw(); document.getElementById('wallet-search')?.focus(); } });
    const needle = state.search.toLowerCase();
    const shown = state.wallets.filter((w) => w.address.toLowerCase().includes(needle) || w.id.startsWith(needle));
    const currencies = [...new Set(state.wallets.flatMap((w) => w.balances.map((b) => b.currency)))];
    /** @type {Column<GqlWallet>[]} */
    const columns = [
      { key: 'address', label: 'Address', render: (w) => el('a', { href: `#/wallets/${w.id}` }, w.address) },
      { key: 'type', label: 'Type', value: (w) => w.type.toLowerCase() },
      { key: 'status', label: 'Status', value: (w) => w.status.toLowerCase(), field: () => 'status' },
      ...currencies.flatMap((c) => BALANCE_FIELDS.map((f) => ({ key: `${c}.${f}`, label: `${c} ${f}`, num: true, field: () => `${c}.${f}`, value: (/** @type {GqlWallet} */ w) => { const v = w.balances.find((b) => b.currency === c)?.[f]; return v === undefined ? '' : Number(v); }, render: (/** @type {GqlWallet} */ w) => w.balances.find((b) => b.currency === c)?.[f] ?? '' }))),
    ];
    const empty = state.wallets.length
      ? notice('empty', 'No wallet matches', 'Nothing on this page has that address or id.')
      : notice('empty', 'No wallets yet', 'Create system and customer wallets in the program set-up.', el('a', { href: '#/program' }, 'Set up wallets'));
    list.replaceChildren(
      el('div', { class: 'toolbar' }, el('label', { for: 'wallet-search' }, 'Search this page by address or id'), search, el('span', { class: 'muted' }, `${state.total} wallets`)),
      dataTable({ columns, rows: shown, empty, rowAttrs: (w) => ({ 'data-wallet': w.id }), sort: state.sort, onSort: (sort) => (state.sort = sort) }),
      el('nav', { class: 'pager', 'aria-label': 'Wallet pages' },
        button('Previous', () => { state.page--; void load(); }, { disabled: state.page === 0 }),
        el('span', {}, ` page ${state.page + 1} `),
        button('Next', () => { state.page++; void load(); }, { disabled: !state.cursors[state.page + 1] })),
    );
  }

  let lastRead = 0;
  const timer = setInterval(() => {
    if (document.hidden || Date.now() - lastRead < (live.connected ? LIVE_POLL_MS : POLL_MS)) return;
    void load();
  }, POLL_MS);
  void load();
  return () => {
    clearInterval(timer);
    live.stop();
  };
}

const symbolOf = (/** @type {GqlWallet[]} */ wallets) => wallets[0]?.balances[0]?.currency;
