// A wallet's pending points (CONTRACT §26): the pending holds *to* it — maturing credits with the
// instant they capture themselves, and ordinary holds — and a void for each, the operator's clawback.
import { rest } from './api.js';
import { confirmAction } from './dialog.js';
import { button, el, failure, loading, notice, time } from './dom.js';
import { dataTable } from './table.js';
/** @import { Answer, Ctx, GqlWallet, Hold } from './types.js' */

/** Pending holds listed at most (newest first); `incoming` on the balances counts them all. */
const SHOWN = 100;

/**
 * @param {Ctx} ctx
 * @param {GqlWallet} wallet
 * @returns {HTMLElement & { refresh: () => Promise<void> }}
 */
export function pendingPanel(ctx, wallet) {
  const body = el('div', {}, loading('pending points'));
  const panel = Object.assign(
    el('section', { class: 'panel', id: 'pending', 'aria-labelledby': 'pending-title' }, el('div', { class: 'panel-head' }, el('h3', { id: 'pending-title' }, 'Pending points')), body),
    { refresh: load },
  );

  async function load() {
    try {
      /** @type {Answer<'listHolds'>} */
      const { holds } = await rest('GET', '/holds', { query: { projectId: ctx.projectId, walletId: wallet.id, status: 'pending', limit: SHOWN } });
      body.replaceChildren(dataTable({
        columns: [
          { key: 'from', label: 'From' },
          { key: 'amount', label: 'Amount', num: true },
          { key: 'currency', label: 'Currency' },
          { key: 'matures_at', label: 'Matures', render: (h) => (h.matures_at ? time(h.matures_at) : 'on capture') },
          { key: 'created_at', label: 'Since', render: (h) => time(h.created_at) },
          { key: 'actions', label: 'Actions', value: () => '', render: (h) => button('Void', () => voidHold(ctx, h, load), { 'aria-label': `Void the pending ${h.amount} ${h.currency} from ${h.from}` }) },
        ],
        // GET /holds?walletId= matches either side: the wallet's own holds as sender are its `held`, not pending points
        rows: holds.filter((h) => h.to === wallet.address),
        rowAttrs: (h) => ({ 'data-hold': h.id }),
        empty: notice('empty', 'No pending points', 'Points held for this wallet (a maturing credit, a hold to it) appear here until they are captured or voided.'),
      }));
    } catch (error) {
      body.replaceChildren(failure(error, 'Pending points'));
    }
  }
  void load();
  return panel;
}

/**
 * @param {Ctx} ctx
 * @param {Hold} hold
 * @param {() => Promise<void>} done
 */
function voidHold(ctx, hold, done) {
  confirmAction({
    id: 'void-pending',
    title: 'Void these pending points?',
    text: `${hold.amount} ${hold.currency} from ${hold.from}${hold.matures_at ? `, maturing ${new Date(hold.matures_at).toLocaleString()}` : ''}: they will never be credited.`,
    confirmLabel: 'Void',
    onConfirm: async () => {
      await rest('POST', `/holds/${hold.id}/void`, { body: { projectId: ctx.projectId } });
      await done();
    },
  });
}
