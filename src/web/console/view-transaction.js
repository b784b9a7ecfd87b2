// One transaction: its parties (linked to their wallets), amount, reference and metadata, what
// reversed it, and a form to reverse it. Read by id through the subgraph's _entities (REST has no
// GET /transactions/{id}).
import { gql, rest } from './console-api.js';
import { button, code, el, failure, flashLine, heading, loading, time } from './console-dom.js';
import { openMoneyForm } from './console-forms.js';
import { transactionTable } from './console-view-transactions.js';

const QUERY = `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on Transaction {
  id amount currency from to date balance reference metadata reverses reversedAmount
  fromWallet { id address type } toWallet { id address type } } } }`;

export function mount(view, ctx) {
  const id = ctx.params[0];
  const flash = flashLine();
  const body = el('div', { id: 'transaction' }, loading('the transaction'));
  view.append(el('p', { class: 'crumbs' }, el('a', { href: '#/transactions' }, '← Transactions')), flash, body);

  async function load() {
    try {
      const data = await gql(QUERY, { reps: [{ __typename: 'Transaction', id }] });
      const t = data._entities[0];
      if (!t) throw Object.assign(new Error('No transaction with this id in your projects.'), { code: 'not_found' });
      const reversals = await rest('GET', '/transactions/search', { query: { projectId: ctx.projectId, reverses: t.id, limit: 100 } });
      body.replaceChildren(
        heading(`Transaction ${t.id.slice(0, 8)}`, t.reverses || t.to === '@expired' ? null : button('Reverse…', () => openMoneyForm('reverse', ctx.projectId, { transactionId: t.id }, async (r) => { flash.say(`Reversal ${r.id} posted.`); await load(); }))),
        el('dl', { class: 'facts' },
          el('dt', {}, 'Id'), el('dd', {}, code(t.id)),
          el('dt', {}, 'Date'), el('dd', {}, time(t.date)),
          el('dt', {}, 'Amount'), el('dd', { 'data-field': 'amount' }, `${t.amount} ${t.currency}`),
          el('dt', {}, 'From'), el('dd', { 'data-field': 'from' }, party(t.from, t.fromWallet)),
          el('dt', {}, 'To'), el('dd', { 'data-field': 'to' }, party(t.to, t.toWallet)),
          el('dt', {}, 'Sender’s balance after'), el('dd', {}, t.balance ?? ''),
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
const party = (address, wallet) => (wallet ? el('a', { href: `#/wallets/${wallet.id}` }, address, ` (${wallet.type.toLowerCase()})`) : address);
