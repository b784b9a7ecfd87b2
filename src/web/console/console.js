// The operator console: one page, plain ES modules, the GraphQL API only.
import { apiKey, gql } from './console-api.js';
import { balanceChart } from './console-chart.js';
import { FIELD_LABELS, FORMS } from './console-forms.js';
import { liveWallets } from './console-live.js';

// The balance columns shown for each currency; holds add 'held' and 'available' here.
const BALANCE_FIELDS = ['balance', 'held', 'available'];
const PAGE_SIZE = 20;
// Without a live subscription the open page and wallet are re-read this often; with one, only
// rarely (new wallets emit no event).
const POLL_MS = 3000;
const LIVE_POLL_MS = 30000;

const state = { projectId: null, cursors: [null], page: 0, walletId: null, wallets: [], search: '' };
const root = document.getElementById('console');

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined));
  return node;
};

const live = liveWallets({
  apiKey,
  onWallet: (wallet) => void applyWalletChange(wallet),
  onState: (connected) => showLive(connected),
});

function showLive(connected) {
  const note = document.getElementById('live');
  if (note) note.textContent = connected ? 'Live: balances update as they change.' : `Balances refresh every ${POLL_MS / 1000} s.`;
}

function render() {
  live.stop();
  root.replaceChildren(
    el('header', {}, el('h1', {}, 'Ledger console'), el('p', { id: 'live', role: 'status' })),
    keySection(),
    el('main', {}, el('section', { id: 'projects', 'aria-labelledby': 'projects-title' }), el('section', { id: 'wallets', 'aria-labelledby': 'wallets-title' }), el('section', { id: 'wallet', 'aria-live': 'polite' }), el('section', { id: 'forms', 'aria-labelledby': 'forms-title' })),
  );
  showLive(false);
  if (apiKey.get()) void loadProjects();
}

function keySection() {
  const input = el('input', { id: 'api-key', type: 'password', autocomplete: 'off', value: apiKey.get() });
  const form = el('form', { id: 'key-form', onsubmit: (e) => { e.preventDefault(); apiKey.set(input.value.trim()); render(); } },
    el('label', { for: 'api-key' }, 'API key'), input, el('button', { type: 'submit' }, 'Use key'),
    el('button', { type: 'button', onclick: () => { apiKey.clear(); render(); } }, 'Forget key'));
  return el('section', { 'aria-label': 'Authentication' }, form, el('p', { id: 'status', role: 'status' }));
}

function showStatus(text, isError = false) {
  const status = document.getElementById('status');
  status.textContent = text;
  status.className = isError ? 'error' : '';
}

async function loadProjects() {
  try {
    const data = await gql(`{ projects(first: 100) { edges { node { id name } } } }`);
    const projects = data.projects.edges.map((e) => e.node);
    const select = el('select', { id: 'project', onchange: (e) => selectProject(e.target.value) },
      el('option', { value: '' }, '— choose —'), projects.map((p) => el('option', { value: p.id, selected: p.id === state.projectId }, `${p.name} (#${p.id})`)));
    document.getElementById('projects').replaceChildren(el('h2', { id: 'projects-title' }, 'Projects'), el('label', { for: 'project' }, 'Project'), select);
    showStatus(projects.length ? '' : 'No projects yet for this key.');
    if (state.projectId) await refresh();
  } catch (error) {
    showStatus(`${error.code}: ${error.message}`, true);
  }
}

function selectProject(id) {
  Object.assign(state, { projectId: id || null, cursors: [null], page: 0, walletId: null });
  renderForms();
  void refresh();
}

async function refresh() {
  if (!state.projectId) return;
  await loadWallets();
  if (state.walletId) await loadWallet(state.walletId);
}

async function loadWallets() {
  const data = await gql(
    `query($projectId: ID!, $first: Int!, $after: String) { wallets(projectId: $projectId, first: $first, after: $after) {
       totalCount pageInfo { hasNextPage endCursor }
       edges { node { id address type status balances { currency ${BALANCE_FIELDS.join(' ')} } } } } }`,
    { projectId: state.projectId, first: PAGE_SIZE, after: state.cursors[state.page] },
  );
  state.wallets = data.wallets.edges.map((e) => e.node);
  state.total = data.wallets.totalCount;
  state.cursors[state.page + 1] = data.wallets.pageInfo.hasNextPage ? data.wallets.pageInfo.endCursor : undefined;
  renderWallets(data.wallets.totalCount);
  live.watch([...state.wallets.map((w) => w.id), state.walletId]);
}

/** A walletChanged message: the row's cells change in place (the search box keeps its focus); an open wallet re-reads its history. */
async function applyWalletChange(wallet) {
  const known = state.wallets.find((w) => w.id === wallet.id);
  if (known) Object.assign(known, { status: wallet.status, balances: wallet.balances });
  const row = document.querySelector(`tr[data-wallet="${wallet.id}"]`);
  if (row) {
    row.querySelector('td[data-field="status"]').textContent = wallet.status.toLowerCase();
    for (const b of wallet.balances) {
      for (const f of BALANCE_FIELDS) {
        const cell = row.querySelector(`td[data-field="${b.currency}.${f}"]`);
        if (cell) cell.textContent = b[f] ?? '';
      }
    }
  }
  if (wallet.id === state.walletId) await loadWallet(wallet.id).catch(() => undefined);
}

function renderWallets(total) {
  const section = document.getElementById('wallets');
  const search = el('input', { id: 'wallet-search', type: 'search', value: state.search, oninput: (e) => { state.search = e.target.value; renderWallets(total); document.getElementById('wallet-search').focus(); } });
  const shown = state.wallets.filter((w) => w.address.toLowerCase().includes(state.search.toLowerCase()) || w.id.startsWith(state.search));
  const currencies = [...new Set(state.wallets.flatMap((w) => w.balances.map((b) => b.currency)))];
  const headers = ['Address', 'Type', 'Status', ...currencies.flatMap((c) => BALANCE_FIELDS.map((f) => `${c} ${f}`))];
  const rows = shown.map((w) =>
    el('tr', { 'data-wallet': w.id },
      el('td', {}, el('button', { type: 'button', class: 'link', onclick: () => { state.walletId = w.id; live.watch([...state.wallets.map((x) => x.id), w.id]); void loadWallet(w.id); } }, w.address)),
      el('td', {}, w.type.toLowerCase()), el('td', { 'data-field': 'status' }, w.status.toLowerCase()),
      currencies.flatMap((c) => BALANCE_FIELDS.map((f) => el('td', { class: 'num', 'data-field': `${c}.${f}` }, w.balances.find((b) => b.currency === c)?.[f] ?? '')))));
  section.replaceChildren(
    el('h2', { id: 'wallets-title' }, `Wallets (${total})`),
    el('label', { for: 'wallet-search' }, 'Search this page by address or id'), search,
    el('table', {}, el('thead', {}, el('tr', {}, headers.map((h) => el('th', { scope: 'col' }, h)))), el('tbody', {}, rows)),
    el('nav', { 'aria-label': 'Wallet pages' },
      el('button', { type: 'button', disabled: state.page === 0, onclick: () => { state.page--; void loadWallets(); } }, 'Previous'),
      el('span', {}, ` page ${state.page + 1} `),
      el('button', { type: 'button', disabled: !state.cursors[state.page + 1], onclick: () => { state.page++; void loadWallets(); } }, 'Next')),
  );
}

async function loadWallet(id) {
  const data = await gql(
    `query($id: ID!) { wallet(id: $id) { id address type status balances { currency ${BALANCE_FIELDS.join(' ')} }
       transactions(first: 100) { edges { node { id amount currency from to date balance } } } } }`,
    { id },
  );
  const wallet = data.wallet;
  if (!wallet) return;
  const history = wallet.transactions.edges.map((e) => e.node);
  const currency = wallet.balances[0]?.currency;
  const points = history.filter((t) => t.currency === currency).reverse().map((t) => ({ date: new Date(t.date), value: Number(t.balance) }));
  document.getElementById('wallet').replaceChildren(
    el('h2', {}, `Wallet ${wallet.address}`),
    el('p', {}, `${wallet.type.toLowerCase()}, ${wallet.status.toLowerCase()} — id `, el('code', {}, wallet.id)),
    el('ul', { class: 'balances' }, wallet.balances.map((b) => el('li', {}, `${b.currency}: `, BALANCE_FIELDS.map((f) => el('span', { 'data-field': f }, `${f} ${b[f]} `))))),
    el('figure', {}, balanceChart(points, { label: `${currency ?? ''} balance over time` }), el('figcaption', {}, `${currency ?? ''} balance over time (last ${points.length} transactions)`)),
    el('table', { class: 'history' },
      el('caption', {}, 'History, newest first'),
      el('thead', {}, el('tr', {}, ['Date', 'From', 'To', 'Amount', 'Currency', 'Balance after', 'Id'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, history.map((t) => el('tr', {}, el('td', {}, t.date), el('td', {}, t.from), el('td', {}, t.to), el('td', { class: 'num' }, t.amount), el('td', {}, t.currency), el('td', { class: 'num' }, t.balance ?? ''), el('td', {}, el('code', {}, t.id)))))),
  );
}

function renderForms() {
  const section = document.getElementById('forms');
  if (!state.projectId) return section.replaceChildren();
  section.replaceChildren(el('h2', { id: 'forms-title' }, 'Move money'), ...FORMS.map(formFor));
}

function formFor(spec) {
  const result = el('output', { id: `${spec.id}-result`, 'aria-live': 'polite' });
  const inputs = spec.fields.map((field) => {
    const id = `${spec.id}-${field}`;
    return el('div', { class: 'field' }, el('label', { for: id }, FIELD_LABELS[field]), el('input', { id, name: field, required: !['expiresIn'].includes(field) && !(field === 'amount' && spec.id !== 'transfer' && spec.id !== 'seed' && spec.id !== 'hold') }));
  });
  const form = el('form', { id: `${spec.id}-form`, 'aria-label': spec.title, onsubmit: async (e) => {
    e.preventDefault();
    const values = Object.fromEntries(new FormData(form).entries());
    result.className = '';
    result.textContent = 'Sending…';
    try {
      const data = await gql(spec.mutation, spec.variables(state.projectId, values));
      result.textContent = `Done: ${JSON.stringify(Object.values(data)[0])}`;
      await refresh();
    } catch (error) {
      result.className = 'error';
      result.textContent = `${error.code}: ${error.message}${Object.keys(error.details ?? {}).length ? ` ${JSON.stringify(error.details)}` : ''}`;
    }
  } }, el('fieldset', {}, el('legend', {}, spec.title), inputs, el('button', { type: 'submit' }, spec.title)), result);
  return form;
}

// Live balances come from walletChanged subscriptions; polling is the fallback, and with a live
// socket a slow re-read still picks up wallets created elsewhere.
let lastRead = 0;
setInterval(() => {
  if (!apiKey.get() || !state.projectId || document.hidden) return;
  if (Date.now() - lastRead < (live.connected ? LIVE_POLL_MS : POLL_MS)) return;
  lastRead = Date.now();
  void refresh().catch(() => undefined);
}, POLL_MS);
render();
