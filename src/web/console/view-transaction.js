// One transaction: its parties (linked to their wallets), amount, reference and metadata, what
// reversed it, and a form to reverse it. Read by id with the `transaction(id)` query (REST has no
// GET /transactions/{id}); a missing one, or another owner's, is its not_found error.
import { gql, rest } from './api.js';
import { button, code, el, failure, flashLine, heading, loading, time } from './dom.js';
import { openMoneyForm } from './forms.js';
import { transactionTable } from './view-transactions.js';
/** @import { Answer, Ctx, Decimal, WalletTypeName } from './types.js' */
/**
 * @typedef {{ id: string, address: string, type: WalletTypeName }} Party
 * @typedef {{ id: string, amount: Decimal, currency: string, from: string, to: string, date: string,
 *   reference: string | null, metadata: Record<string, unknown>, reverses: string | null, reversedAmount: Decimal,
 *   fromWallet: Party | null, toWallet: Party | null }} OneTransaction QUERY's selection
 */

const QUERY = `query($id: ID!) { transaction(id: $id) {
  id amount currency from to date reference metadata reverses reversedAmount
  fromWallet { id address type } toWallet { id address type } } }`;

/**
 * @param {HTMLElement} view
 * @param {Ctx} ctx
 */
export function mount(view, ctx) {
  const id = ctx.params[0];
  const flash = flashLine();
  const body = el('div', { id: 'transaction' }, loading('the transaction'));
  view.append(el('p', { class: 'crumbs' }, el('a', { href: '#/transactions' }, '← Transactions')), flash, body);

  async function load() {
    try {
      /** @type {{ transaction: OneTransaction }} */
      const { transaction: t } = await gql(QUERY, { id });
      /** @type {Answer<'searchTransactions'>} */
      const reversals = await rest('GET', '/transactions/search', { query: { projectId: ctx.projectId, reverses: t.id, limit: 100 } });
      body.replaceChildren(
        heading(`Transaction ${t.id.slice(0, 8)}`, t.reverses || t.to === '@expired' ? null : button('Reverse…', () => openMoneyForm('reverse', ctx.projectId, { transactionId: t.id }, async (r) => { flash.say(`Reversal ${r.id} posted.`); await load(); }))),
        el('dl', { class: 'facts' },
          el('dt', {}, 'Id'), el('dd', {}, code(t.id)),
          el('dt', {}, 'Date'), el('dd', {}, time(t.date)),
          el('dt', {}, 'Amount'), el('dd', { 'data-field': 'amount' }, `${t.amount} ${t.currency}`),
          el('dt', {}, 'From'), el('dd', { 'data-field': 'from' }, party(t.from, t.fromWallet)),
          el('dt', {}, 'To'), el('dd', { 'data-field': 'to' }, party(t.to, t.toWallet)),
          el('dt', {}, 'Reference'), el('dd', {}, t.reference ?? '—'),
          el('dt', {}, 'Reverses'), el('dd', {}, t.reverses ? el('a', { href: `#/transactions/${t.reverses}` }, t.reverses) : '—'),
          el('dt', {}, 'Reversed so far'), el('dd', { 'data-field': 'reversedAmount' }, `${t.reversedAmount} ${t.currency}`)),
        el('section', { class: 'panel', 'aria-labelledby': 'metadata-title' }, el('h3', { id: 'metadata-title' }, 'Metadata'), el('pre', { class: 'json' }, JSON.stringify(t.metadata, null, 2))),
        el('section', { class: 'panel', 'aria-labelledby': 'reversals-title' }, el('h3', { id: 'reversals-title' }, 'Reversals'), transactionTable(reversals.transactions, el('p', { class: 'muted' }, 'Not reversed.'))),
      );
    } catch (error) {
      body.replaceChildren(failure(error, 'The transaction'));
    }
  }
  void load();
}

/** An address, linked to its wallet when it is one (not @mint or @expired). */
const party = (/** @type {string} */ address, /** @type {Party | null} */ wallet) => (wallet ? el('a', { href: `#/wallets/${wallet.id}` }, address, ` (${wallet.type.toLowerCase()})`) : address);
