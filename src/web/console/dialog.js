// Forms open in a modal <dialog>: the view stays in place behind it, Escape closes it, and the
// refusal of the API shows inside the form, next to the fields the operator can correct.
import { errorText } from './api.js';
import { el } from './dom.js';
/** @import { FieldSpec, FormValues } from './types.js' */

/**
 * `fields`: [{ name, label, type? ('text' | 'number' | 'select' | 'checkbox' | 'datetime-local'),
 * required?, options? [[value, label]], value?, hint? }]. `onSubmit(values)` runs the call; it
 * returns nothing (the dialog closes) or a node to show in the dialog (e.g. a secret shown once).
 * @param {{ id: string, title: string, fields: FieldSpec[], submitLabel?: string, intro?: string,
 *   onSubmit: (values: FormValues) => Promise<Node | void> }} form
 */
export function openForm({ id, title, fields, submitLabel = title, intro, onSubmit }) {
  const result = el('output', { id: `${id}-result`, class: 'result', 'aria-live': 'polite' });
  const inputs = fields.map((f) => field(id, f));
  const submit = el('button', { type: 'submit', class: 'primary' }, submitLabel);
  const cancel = el('button', { type: 'button', onclick: () => { dialog.close(); } }, 'Cancel');
  const form = el('form', { id: `${id}-form`, 'aria-label': title, method: 'dialog' }, el('h3', {}, title), intro ? el('p', {}, intro) : null, inputs, result, el('div', { class: 'dialog-actions' }, cancel, submit));
  const dialog = el('dialog', { class: 'form-dialog', 'aria-label': title }, form);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    /** @type {FormValues} */
    const values = {};
    for (const f of fields) {
      const input = /** @type {HTMLInputElement | HTMLSelectElement} */ (form.elements.namedItem(f.name));
      values[f.name] = input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value.trim();
    }
    submit.disabled = true;
    result.className = 'result';
    result.textContent = 'Sending…';
    try {
      const shown = await onSubmit(values);
      if (shown) {
        result.replaceChildren(shown);
        submit.hidden = true;
        cancel.textContent = 'Close';
      } else dialog.close();
    } catch (error) {
      result.className = 'result error';
      result.textContent = errorText(error);
    } finally {
      submit.disabled = false;
    }
  });
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

/**
 * @param {string} formId
 * @param {FieldSpec} f
 */
function field(formId, f) {
  const id = `${formId}-${f.name}`;
  const hint = f.hint ? el('small', { id: `${id}-hint`, class: 'hint' }, f.hint) : null;
  const common = { id, name: f.name, required: f.required ?? false, 'aria-describedby': hint ? `${id}-hint` : null };
  if (f.type === 'checkbox') return el('div', { class: 'field check' }, el('input', { ...common, type: 'checkbox', checked: f.value ?? false }), el('label', { for: id }, f.label), hint);
  const input =
    f.type === 'select'
      ? el('select', common, (f.options ?? []).map(([value, label]) => el('option', { value, selected: value === f.value }, label)))
      : el('input', { ...common, type: f.type ?? 'text', value: f.value ?? null, step: f.step ?? null, min: f.min ?? null, inputmode: f.inputmode ?? null, placeholder: f.placeholder ?? null });
  return el('div', { class: 'field' }, el('label', { for: id }, f.label), input, hint);
}

/**
 * A yes/no question in the same dialog form; `onConfirm` runs the call and the dialog closes.
 * @param {{ id: string, title: string, text: string, confirmLabel: string, onConfirm: () => Promise<void> }} question
 */
export function confirmAction({ id, title, text, confirmLabel, onConfirm }) {
  return openForm({ id, title, submitLabel: confirmLabel, fields: [], intro: text, onSubmit: onConfirm });
}
