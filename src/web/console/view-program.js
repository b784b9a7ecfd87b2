// Program set-up from nothing: a project, its assets (with their expiry), system and customer
// wallets, and the plan's quotas they count against.
import { rest } from './api.js';
import { openForm } from './dialog.js';
import { button, code, duration, el, failure, flashLine, heading, loading, notice, time } from './dom.js';
import { dataTable } from './table.js';
/** @import { Answer, Asset, Child, Ctx, FieldSpec, FormValues, Plan, Project, Wallet } from './types.js' */

/** @type {Record<string, number>} */
const UNITS = { days: 86400, hours: 3600, minutes: 60, seconds: 1 };

/**
 * @param {HTMLElement} view
 * @param {Ctx} ctx
 */
export function mount(view, ctx) {
  const flash = flashLine();
  const body = el('div', {});
  view.append(heading(ctx.project ? `Program: ${ctx.project.name}` : 'Set up a program', button('New project…', () => newProject(ctx), { class: ctx.project ? null : 'primary' })), flash, body);
  if (!ctx.project) {
    body.append(notice('empty', 'No project yet', 'Create a project first; its first asset becomes its primary currency.'), planCard(ctx.plan));
    return;
  }
  const project = ctx.project;
  const draw = async () => {
    body.replaceChildren(loading('the program'));
    try {
      const q = { projectId: ctx.projectId, limit: 100 };
      /** @type {[Answer<'listAssets'>, Answer<'listCustomerWallets'>, Answer<'listSystemWallets'>]} */
      const [assets, customers, systems] = await Promise.all([rest('GET', '/assets', { query: q }), rest('GET', '/wallets/customer', { query: { ...q, limit: 1 } }), rest('GET', '/wallets/system', { query: q })]);
      body.replaceChildren(projectCard(project, assets.assets), assetsSection(assets.assets), walletsSection(customers.pagination.total, systems), planCard(ctx.plan));
    } catch (error) {
      body.replaceChildren(failure(error, 'The program'));
    }
  };

  // the first asset becomes the project's primary one: the projects are read again
  const assetsSection = (/** @type {Asset[]} */ assets) =>
    section('Assets', 'assets-title', [button('New asset…', () => newAsset(ctx, async (a) => { flash.say(`Asset ${a.symbol} created.`); await ctx.reloadProjects(ctx.projectId); }), { class: assets.length ? null : 'primary' })],
      assetTable(assets, (asset) => editExpiry(ctx, asset, async () => { flash.say(`Expiry of ${asset.symbol} changed.`); await draw(); })));

  const created = (/** @type {string} */ type) => (/** @type {Wallet} */ wallet) => { flash.say(`${type} wallet ${wallet.address} created.`); void draw(); };
  const walletsSection = (/** @type {number} */ customerCount, /** @type {Answer<'listSystemWallets'>} */ systems) =>
    section('Wallets', 'wallets-title', [button('New system wallet…', () => newWallet(ctx, 'system', created('System'))), button('New customer wallet…', () => newWallet(ctx, 'customer', created('Customer')))],
      el('p', {}, `${customerCount} customer wallets, ${systems.pagination.total} system wallets. `, el('a', { href: '#/wallets' }, 'Open the wallets')),
      dataTable({
        columns: [
          { key: 'address', label: 'System wallet', render: (w) => el('a', { href: `#/wallets/${w.id}` }, w.address) },
          { key: 'status', label: 'Status' },
          { key: 'created_at', label: 'Created', render: (w) => time(w.created_at) },
        ],
        rows: systems.wallets,
        empty: notice('empty', 'No system wallet yet', 'A system wallet issues points to customers; seed it to fund the program.'),
      }));
  void draw();
}

/** @type {(title: string, id: string, actions: Child[], ...content: Child[]) => HTMLElement} */
const section = (title, id, actions, ...content) => el('section', { class: 'panel', 'aria-labelledby': id }, el('div', { class: 'panel-head' }, el('h3', { id }, title), el('div', { class: 'actions' }, actions)), content);

/**
 * @param {Project} project
 * @param {Asset[]} assets
 */
function projectCard(project, assets) {
  const primary = assets.find((a) => a.id === project.asset_id);
  return el('section', { class: 'panel', 'aria-label': 'Project' }, el('dl', { class: 'facts' },
    el('dt', {}, 'Project id'), el('dd', {}, code(String(project.id))),
    el('dt', {}, 'Primary asset'), el('dd', {}, primary ? primary.symbol : 'none yet'),
    el('dt', {}, 'Exchange rate'), el('dd', {}, project.supportExchangeRate ? `${project.exchangeRate} points per fiat unit` : 'not used'),
    el('dt', {}, 'Created'), el('dd', {}, time(project.created_at))));
}

/** @param {Plan | null} plan */
function planCard(plan) {
  if (!plan) return '';
  const rows = /** @type {const} */ (['projects', 'assets_per_project', 'customer_wallets', 'system_wallets', 'api_calls_per_day']);
  return el('section', { class: 'panel', 'aria-labelledby': 'plan-title' }, el('h3', { id: 'plan-title' }, `Plan: ${plan.plan_code}`),
    el('dl', { class: 'facts' }, rows.map((r) => [el('dt', {}, r.replaceAll('_', ' ')), el('dd', {}, plan[r].toLocaleString())]),
      el('dt', {}, 'advanced analytics'), el('dd', {}, plan.advanced_analytics ? 'yes' : 'no')));
}

/**
 * @param {Asset[]} assets
 * @param {(asset: Asset) => void} onExpiry
 */
function assetTable(assets, onExpiry) {
  return dataTable({
    columns: [
      { key: 'symbol', label: 'Symbol' },
      { key: 'name', label: 'Name' },
      { key: 'fractions', label: 'Decimals', num: true },
      { key: 'expiresAfterSeconds', label: 'Points expire after', render: (a) => duration(a.expiresAfterSeconds) },
      { key: 'actions', label: 'Actions', value: () => '', render: (a) => button('Expiry…', () => onExpiry(a), { 'aria-label': `Change the expiry of ${a.symbol}` }) },
    ],
    rows: assets,
    empty: notice('empty', 'No asset yet', 'An asset is the program’s currency (points): a symbol and its decimals.'),
  });
}

/** @param {Ctx} ctx */
function newProject(ctx) {
  openForm({
    id: 'new-project',
    title: 'New project',
    submitLabel: 'Create project',
    fields: [
      { name: 'name', label: 'Name', required: true },
      { name: 'supportExchangeRate', label: 'Points can be bought with fiat (exchange rate)', type: 'checkbox' },
      { name: 'exchangeRate', label: 'Points per fiat unit', type: 'number', value: '1', step: 'any', min: '0' },
    ],
    onSubmit: async (v) => {
      /** @type {Project} */
      const project = await rest('POST', '/projects', { body: { name: v.name, supportExchangeRate: v.supportExchangeRate, exchangeRate: Number(v.exchangeRate || 1) } });
      await ctx.reloadProjects(project.id);
    },
  });
}

/** @type {(seconds: number | null) => FieldSpec[]} */
const expiryFields = (seconds) => {
  const unit = seconds === null ? 'days' : (Object.keys(UNITS).find((u) => seconds % UNITS[u] === 0) ?? 'seconds');
  return [
    { name: 'expiryValue', label: 'Points expire after', type: 'number', min: '1', step: '1', value: seconds ? String(seconds / UNITS[unit]) : '', hint: 'Empty: points never expire. Applies to credits posted from now on.' },
    { name: 'expiryUnit', label: 'Unit', type: 'select', value: unit, options: Object.keys(UNITS).map((u) => [u, u]) },
  ];
};
const expirySeconds = (/** @type {FormValues} */ v) => (v.expiryValue ? Number(v.expiryValue) * UNITS[String(v.expiryUnit)] : null);

/**
 * @param {Ctx} ctx
 * @param {(asset: Asset) => Promise<void>} done
 */
function newAsset(ctx, done) {
  openForm({
    id: 'new-asset',
    title: 'New asset',
    submitLabel: 'Create asset',
    fields: [
      { name: 'name', label: 'Name', required: true, placeholder: 'Reward points' },
      { name: 'symbol', label: 'Symbol (A–Z, 0–9, _ -)', required: true, placeholder: 'PTS' },
      { name: 'fractions', label: 'Decimals', type: 'number', min: '0', step: '1', value: '2', required: true },
      ...expiryFields(null),
    ],
    onSubmit: async (v) => {
      /** @type {Asset} */
      const asset = await rest('POST', '/assets', { body: { projectId: ctx.projectId, name: v.name, symbol: v.symbol, fractions: Number(v.fractions), expiresAfterSeconds: expirySeconds(v) } });
      await done(asset);
    },
  });
}

/**
 * @param {Ctx} ctx
 * @param {Asset} asset
 * @param {() => Promise<void>} done
 */
function editExpiry(ctx, asset, done) {
  openForm({
    id: 'asset-expiry',
    title: `Expiry of ${asset.symbol}`,
    submitLabel: 'Save expiry',
    fields: expiryFields(asset.expiresAfterSeconds),
    onSubmit: async (v) => {
      await rest('PUT', `/assets/${asset.id}`, { body: { projectId: ctx.projectId, expiresAfterSeconds: expirySeconds(v) } });
      await done();
    },
  });
}

/**
 * @param {Ctx} ctx
 * @param {'system' | 'customer'} type
 * @param {(wallet: Wallet) => void} done
 */
function newWallet(ctx, type, done) {
  openForm({
    id: `new-${type}-wallet`,
    title: `New ${type} wallet`,
    submitLabel: 'Create wallet',
    fields: [{ name: 'address', label: 'Address (optional)', hint: '1–128 of A–Z a–z 0–9 . _ : @ - ; generated when empty.' }],
    onSubmit: async (v) => {
      /** @type {Wallet} */
      const wallet = await rest('POST', `/wallets/create/${type}`, { body: { projectId: ctx.projectId, ...(v.address ? { address: v.address } : {}) } });
      done(wallet);
    },
  });
}
