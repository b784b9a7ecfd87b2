// The money moves the console offers, declared once: a form is its fields and the mutation it
// runs. Adding a verb is one entry here; openMoneyForm shows one in a dialog.
import { gql } from './api.js';
import { openForm } from './dialog.js';
/** @import { FormValues } from './types.js' */

/**
 * @typedef {keyof typeof FIELD_LABELS} MoneyField
 * @typedef {{ id: string, title: string, fields: MoneyField[], mutation: string,
 *   variables: (projectId: number | null, values: FormValues) => Record<string, unknown> }} MoneyForm
 * @typedef {{ id?: string, hold?: { id: string } }} MoneyResult what the views read of a mutation's answer
 */

/** @type {MoneyForm[]} */
export const FORMS = [
  {
    id: 'transfer',
    title: 'Transfer',
    fields: ['from', 'to', 'amount', 'currency'],
    mutation: `mutation($input: TransferInput!) { transfer(input: $input) { id amount currency from to balance } }`,
    variables: (projectId, v) => ({ input: { projectId, from: v.from, to: v.to, amount: v.amount, currency: v.currency } }),
  },
  {
    id: 'seed',
    title: 'Seed (mint into a system wallet)',
    fields: ['to', 'amount', 'currency'],
    mutation: `mutation($input: SeedInput!) { seed(input: $input) { id amount currency to balance } }`,
    variables: (projectId, v) => ({ input: { projectId, to: v.to, amount: v.amount, currency: v.currency } }),
  },
  {
    id: 'hold',
    title: 'Hold',
    fields: ['from', 'to', 'amount', 'currency', 'expiresIn'],
    mutation: `mutation($projectId: ID!, $from: String!, $to: String!, $amount: Decimal!, $currency: String!, $expiresIn: Int) {
      createHold(projectId: $projectId, from: $from, to: $to, amount: $amount, currency: $currency, expiresIn: $expiresIn) { id status amount } }`,
    variables: (projectId, v) => ({ projectId, from: v.from, to: v.to, amount: v.amount, currency: v.currency, expiresIn: v.expiresIn ? Number(v.expiresIn) : null }),
  },
  {
    id: 'capture',
    title: 'Capture a hold',
    fields: ['holdId', 'amount'],
    mutation: `mutation($id: ID!, $projectId: ID!, $amount: Decimal) { captureHold(id: $id, projectId: $projectId, amount: $amount) { hold { id status capturedAmount } } }`,
    variables: (projectId, v) => ({ id: v.holdId, projectId, amount: v.amount || null }),
  },
  {
    id: 'void',
    title: 'Void a hold',
    fields: ['holdId'],
    mutation: `mutation($id: ID!, $projectId: ID!) { voidHold(id: $id, projectId: $projectId) { id status } }`,
    variables: (projectId, v) => ({ id: v.holdId, projectId }),
  },
  {
    id: 'reverse',
    title: 'Reverse a transaction',
    fields: ['transactionId', 'amount'],
    mutation: `mutation($id: ID!, $projectId: ID!, $amount: Decimal) { reverseTransaction(id: $id, projectId: $projectId, amount: $amount) { id amount reverses } }`,
    variables: (projectId, v) => ({ id: v.transactionId, projectId, amount: v.amount || null }),
  },
];

export const FIELD_LABELS = {
  from: 'From (wallet id or address)',
  to: 'To (wallet id or address)',
  amount: 'Amount (major units)',
  currency: 'Currency (asset symbol)',
  expiresIn: 'Expires in (seconds, optional)',
  holdId: 'Hold id',
  transactionId: 'Transaction id',
};

// Optional fields; every other one is required.
/** @type {Partial<Record<MoneyField, boolean | ((formId: string) => boolean)>>} */
const OPTIONAL = { expiresIn: true, amount: (id) => !['transfer', 'seed', 'hold'].includes(id) };

/**
 * Opens the form `id` (a FORMS entry) in a dialog, `values` prefilled; `done(result)` after it succeeds.
 * @param {string} id
 * @param {number | null} projectId
 * @param {Partial<Record<MoneyField, string>>} values
 * @param {(result: MoneyResult) => Promise<void>} done
 */
export function openMoneyForm(id, projectId, values, done) {
  const spec = FORMS.find((f) => f.id === id);
  if (!spec) throw new Error(`no money form "${id}"`);
  const optional = (/** @type {MoneyField} */ field) => {
    const rule = OPTIONAL[field];
    return typeof rule === 'function' ? rule(id) : rule ?? false;
  };
  openForm({
    id: spec.id,
    title: spec.title,
    fields: spec.fields.map((name) => ({ name, label: FIELD_LABELS[name], required: !optional(name), value: values[name] ?? '', inputmode: name === 'amount' || name === 'expiresIn' ? 'decimal' : null })),
    onSubmit: async (v) => {
      /** @type {Record<string, MoneyResult>} */
      const data = await gql(spec.mutation, spec.variables(projectId, v));
      await done(Object.values(data)[0]);
    },
  });
}
