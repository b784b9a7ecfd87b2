// The operator console: a shell (key, project, navigation, theme) and one module per view, each
// loaded when first opened. Routes are the URL's hash: #/<view>/<id>, so a view can be linked to;
// #/wallets/<id> and #/transactions/<id> open the view of one (`one`).
import { ApiError, apiKey, rest } from './api.js';
import { el, failure } from './dom.js';
import { themeToggle } from './theme.js';
/** @import { Answer, Ctx, ViewModule } from './types.js' */

/** @type {{ path: string, label: string, load: () => Promise<ViewModule>, one?: () => Promise<ViewModule> }[]} */
const VIEWS = [
  { path: 'dashboard', label: 'Dashboard', load: () => import('./view-dashboard.js') },
  { path: 'program', label: 'Program', load: () => import('./view-program.js') },
  { path: 'wallets', label: 'Wallets', load: () => import('./view-wallets.js'), one: () => import('./view-wallet.js') },
  { path: 'transactions', label: 'Transactions', load: () => import('./view-transactions.js'), one: () => import('./view-transaction.js') },
  { path: 'holds', label: 'Holds', load: () => import('./view-holds.js') },
  { path: 'groups', label: 'Groups', load: () => import('./view-groups.js') },
  { path: 'events', label: 'Events', load: () => import('./view-events.js') },
  { path: 'webhooks', label: 'Webhooks', load: () => import('./view-webhooks.js') },
];
const PROJECT = 'ledger.console.project';

const root = /** @type {HTMLElement} */ (document.getElementById('console')); // pages.ts: the console page has it
/** @type {Ctx} */
const ctx = {
  projects: [],
  project: null,
  plan: null,
  params: [],
  get projectId() {
    return this.project?.id ?? null;
  },
  go: (hash) => (location.hash === hash ? route() : (location.hash = hash)),
  reloadProjects: (selectId) => loadProjects(selectId),
};
/** @type {(() => void) | null} the open view's clean-up (subscriptions, timers) */
let leave = null;
let routing = 0;

function shell() {
  if (!apiKey.get()) return signIn();
  const select = el('select', { id: 'project', onchange: () => { chooseProject(select.value); } });
  root.replaceChildren(
    el('a', { class: 'skip', href: '#view' }, 'Skip to content'),
    el('header', { class: 'top' },
      el('h1', {}, el('a', { href: '#/dashboard' }, 'Ledger console')),
      el('div', { class: 'project-picker' }, el('label', { for: 'project' }, 'Project'), select),
      el('div', { class: 'top-actions' }, themeToggle(), el('button', { type: 'button', class: 'ghost', onclick: () => { apiKey.clear(); sessionStorage.removeItem(PROJECT); shell(); } }, 'Forget key'))),
    el('nav', { class: 'views', 'aria-label': 'Views' }, el('ul', {}, VIEWS.map((v) => el('li', {}, el('a', { href: `#/${v.path}`, 'data-view': v.path }, v.label))))),
    el('main', { id: 'view', tabindex: '-1' }),
  );
  void loadProjects(sessionStorage.getItem(PROJECT));
}

function signIn() {
  leave?.();
  leave = null;
  const input = el('input', { id: 'api-key', type: 'password', autocomplete: 'off', required: true });
  root.replaceChildren(
    el('header', { class: 'top' }, el('h1', {}, 'Ledger console'), el('div', { class: 'top-actions' }, themeToggle())),
    el('main', { id: 'view', class: 'sign-in' },
      el('form', { id: 'key-form', class: 'card', onsubmit: (e) => { e.preventDefault(); apiKey.set(input.value.trim()); shell(); } },
        el('h2', {}, 'Sign in with an API key'),
        el('p', {}, 'The key stays in this tab (session storage) and goes only to this service.'),
        el('div', { class: 'field' }, el('label', { for: 'api-key' }, 'API key'), input),
        el('button', { type: 'submit', class: 'primary' }, 'Use key'))),
  );
}

/** @param {string | number | null} selectId the project to choose, when the key has it */
async function loadProjects(selectId) {
  try {
    /** @type {[Answer<'getPlan'>, Answer<'listProjects'>]} */
    const [plan, page] = await Promise.all([rest('GET', '/user/plan'), rest('GET', '/projects', { query: { limit: 100 } })]);
    ctx.plan = plan;
    ctx.projects = page.projects;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'unauthorized') {
      apiKey.clear();
      signIn();
      document.getElementById('key-form')?.prepend(el('p', { class: 'error', role: 'alert' }, 'That key was refused (unauthorized).'));
      return;
    }
    document.getElementById('view')?.replaceChildren(failure(error, 'Projects'));
    return;
  }
  // the key was forgotten while the projects loaded: the sign-in form replaced the shell
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById('project'));
  if (!select) return;
  const wanted = ctx.projects.find((p) => String(p.id) === String(selectId)) ?? ctx.projects[0] ?? null;
  ctx.project = wanted;
  if (wanted) sessionStorage.setItem(PROJECT, String(wanted.id));
  select.replaceChildren(
    ...(ctx.projects.length ? [] : [el('option', { value: '' }, 'No project yet')]),
    ...ctx.projects.map((p) => el('option', { value: p.id, selected: p === wanted }, `${p.name} (#${p.id})`)),
  );
  select.disabled = ctx.projects.length === 0;
  await route();
}

/** @param {string} id */
function chooseProject(id) {
  ctx.project = ctx.projects.find((p) => String(p.id) === id) ?? null;
  if (ctx.project) sessionStorage.setItem(PROJECT, id);
  void route();
}

/** Opens the view the hash names (the dashboard by default), after closing the open one. */
async function route() {
  const view = document.getElementById('view');
  if (!view || !apiKey.get()) return;
  const [path, ...params] = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const target = VIEWS.find((v) => v.path === path) ?? VIEWS[0];
  for (const link of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll('nav.views a'))) {
    if (link.dataset.view === target.path) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  leave?.();
  leave = null;
  const mine = ++routing;
  document.title = `${target.label} · Ledger console`;
  ctx.params = params.filter(Boolean);
  const module = await (ctx.params.length && target.one ? target.one() : target.load());
  if (mine !== routing) return; // another navigation started meanwhile
  const container = el('div', { class: `view view-${target.path}`, 'data-view': target.path });
  view.replaceChildren(container);
  leave = module.mount(container, ctx) ?? null;
}

window.addEventListener('hashchange', () => void route());
shell();
