// Outbound webhook endpoints (CONTRACT §16): the project's endpoints, a form to add one (its
// secret is shown once, in the dialog), delete, and each endpoint's delivery attempts.
import { rest } from './api.js';
import { confirmAction, openForm } from './dialog.js';
import { button, code, el, failure, flashLine, heading, loading, noProject, notice, time } from './dom.js';
import { dataTable } from './table.js';
/** @import { Answer, Ctx, FieldSpec, WebhookEndpoint } from './types.js' */

const DELIVERY_POLL_MS = 2000;
const TYPES = ['transaction.posted', 'hold.created', 'hold.captured', 'hold.voided', 'hold.expired', 'wallet.status_changed', 'points.expired', 'balance.threshold_crossed'];

/**
 * @param {HTMLElement} view
 * @param {Ctx} ctx
 */
export function mount(view, ctx) {
  if (!ctx.project) return void view.append(heading('Webhooks'), noProject());
  const flash = flashLine();
  const list = el('div', {}, loading('endpoints'));
  const deliveries = el('div', { id: 'deliveries' });
  view.append(heading('Webhooks', button('Add endpoint…', () => newEndpoint(ctx, load), { class: 'primary' })), flash, list, deliveries);

  async function load() {
    try {
      /** @type {Answer<'listWebhookEndpoints'>} */
      const { endpoints } = await rest('GET', '/webhook-endpoints', { query: { projectId: ctx.projectId, limit: 100 } });
      list.replaceChildren(dataTable({
        columns: [
          { key: 'url', label: 'URL', render: (e) => el('a', { href: `#/webhooks/${e.id}` }, e.url) },
          { key: 'types', label: 'Events', value: (e) => (e.types.length === TYPES.length - 1 || e.types.length === TYPES.length ? 'all' : e.types.join(', ')) },
          { key: 'created_at', label: 'Created', render: (e) => time(e.created_at) },
          { key: 'actions', label: 'Actions', value: () => '', render: (e) => button('Delete', () => deleteEndpoint(e, async () => { flash.say(`Endpoint ${e.url} deleted.`); await ctx.go('#/webhooks'); }), { 'aria-label': `Delete the endpoint ${e.url}` }) },
        ],
        rows: endpoints,
        rowAttrs: (e) => ({ 'data-endpoint': e.id }),
        empty: notice('empty', 'No webhook endpoints', 'Add one to receive each event as a signed POST (Standard Webhooks).'),
      }));
      const open = endpoints.find((e) => e.id === ctx.params[0]);
      if (!open) return void deliveries.replaceChildren();
      void showDeliveries(open, deliveries);
      // attempts happen in the background: while an endpoint is open, its list follows them
      timer = setInterval(() => document.hidden || void showDeliveries(open, deliveries, true), DELIVERY_POLL_MS);
    } catch (error) {
      list.replaceChildren(failure(error, 'Webhook endpoints'));
    }
  }
  /** @type {number | undefined} */
  let timer;
  void load();
  return () => clearInterval(timer);
}

/**
 * @param {WebhookEndpoint} endpoint
 * @param {HTMLElement} target
 */
async function showDeliveries(endpoint, target, quiet = false) {
  if (!quiet) target.replaceChildren(loading('deliveries'));
  try {
    /** @type {Answer<'listWebhookDeliveries'>} */
    const { deliveries } = await rest('GET', `/webhook-endpoints/${endpoint.id}/deliveries`, { query: { limit: 100 } });
    target.replaceChildren(el('section', { class: 'panel', 'aria-labelledby': 'deliveries-title' },
      el('div', { class: 'panel-head' }, el('h3', { id: 'deliveries-title' }, `Deliveries to ${endpoint.url}`), el('div', { class: 'actions' }, button('Refresh', () => void showDeliveries(endpoint, target)))),
      dataTable({
        columns: [
          { key: 'created_at', label: 'Attempted', render: (d) => time(d.created_at) },
          { key: 'eventId', label: 'Event', render: (d) => code(d.eventId.slice(0, 8)) },
          { key: 'attempt', label: 'Attempt', num: true },
          { key: 'status', label: 'Result', render: (d) => el('span', { class: `badge status-${d.status}` }, d.status), field: () => 'status' },
          { key: 'responseStatus', label: 'HTTP', num: true },
          { key: 'error', label: 'Error' },
        ],
        rows: deliveries,
        rowAttrs: (d) => ({ 'data-delivery': d.id }),
        empty: notice('empty', 'No deliveries yet', 'Events committed after the endpoint was added are sent within seconds.'),
      })));
  } catch (error) {
    target.replaceChildren(failure(error, 'Deliveries'));
  }
}

/**
 * @param {Ctx} ctx
 * @param {() => Promise<void>} done
 */
function newEndpoint(ctx, done) {
  openForm({
    id: 'new-endpoint',
    title: 'Add a webhook endpoint',
    submitLabel: 'Add endpoint',
    fields: [
      { name: 'url', label: 'URL (http or https)', type: 'url', required: true, placeholder: 'https://example.com/ledger-events' },
      ...TYPES.map((t) => /** @satisfies {FieldSpec} */ ({ name: `type:${t}`, label: t, type: 'checkbox', hint: t === TYPES[0] ? 'No type checked: every type.' : null })),
    ],
    onSubmit: async (v) => {
      const types = TYPES.filter((t) => v[`type:${t}`]);
      /** @type {Answer<'createWebhookEndpoint'>} */
      const endpoint = await rest('POST', '/webhook-endpoints', { body: { projectId: ctx.projectId, url: v.url, ...(types.length ? { types } : {}) } });
      await done();
      return el('div', { class: 'secret' }, el('p', {}, 'Endpoint added. Its signing secret is shown only now: keep it to verify the webhook-signature header.'), el('p', {}, el('code', { id: 'endpoint-secret' }, endpoint.secret)));
    },
  });
}

/**
 * @param {WebhookEndpoint} endpoint
 * @param {() => Promise<void>} done
 */
function deleteEndpoint(endpoint, done) {
  confirmAction({
    id: 'delete-endpoint',
    title: 'Delete this endpoint?',
    text: `${endpoint.url} receives no more events.`,
    confirmLabel: 'Delete endpoint',
    onConfirm: async () => {
      await rest('DELETE', `/webhook-endpoints/${endpoint.id}`);
      await done();
    },
  });
}
