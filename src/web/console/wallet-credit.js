// A wallet's credit lines (CONTRACT §28): how far below zero it may go in each currency. The
// current line shows in the balances table (creditLimit, with available = balance − held + line);
// this panel sets, lowers or removes one.
import { rest } from './api.js';
import { openForm } from './dialog.js';
import { button, el } from './dom.js';
/** @import { Ctx, GqlWallet } from './types.js' */

/**
 * @param {Ctx} ctx
 * @param {GqlWallet} wallet
 * @param {() => Promise<void>} reload re-reads the wallet (its balances show the new line)
 */
export function creditPanel(ctx, wallet, reload) {
  const set = button('Set credit line…', () => setCreditLine(ctx, wallet, reload));
  set.disabled = wallet.status === 'CLOSED';
  return el('section', { class: 'panel', id: 'credit-line', 'aria-labelledby': 'credit-line-title' },
    el('div', { class: 'panel-head' }, el('h3', { id: 'credit-line-title' }, 'Credit line'), el('div', { class: 'actions' }, set)),
    el('p', { class: 'muted' },
      'With a line, the wallet may spend below zero, down to −limit. Lowering it below what is used reverses nothing: the wallet then only receives until its available is above zero. Not for currencies whose points expire.'));
}

/**
 * @param {Ctx} ctx
 * @param {GqlWallet} wallet
 * @param {() => Promise<void>} done
 */
function setCreditLine(ctx, wallet, done) {
  openForm({
    id: 'set-credit-line',
    title: 'Set a credit line',
    submitLabel: 'Set credit line',
    fields: [
      { name: 'currency', label: 'Currency', type: 'select', options: wallet.balances.map((b) => [b.currency, `${b.currency} (line now ${b.creditLimit ?? '0'})`]) },
      { name: 'limit', label: 'Limit (major units, 0 removes it)', required: true, inputmode: 'decimal', value: '0' },
    ],
    onSubmit: async (v) => {
      await rest('PUT', `/wallets/${wallet.id}/credit-line`, { body: { projectId: ctx.projectId, currency: v.currency, limit: Number(v.limit) } });
      await done();
    },
  });
}
