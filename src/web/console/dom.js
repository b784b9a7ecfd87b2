// DOM building without a framework. Never a `style` attribute or inline handler: the page's
// Content-Security-Policy refuses both (styles come from console.css, handlers are listeners).
import { ApiError, errorText } from './api.js';
/** @import { Attrs, Child } from './types.js' */

/**
 * `el('button', {type: 'button', onclick}, 'Save')`: `on*` become listeners, false/null attributes are left out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? '' : String(value));
  }
  // flattened as unknown[]: TypeScript cannot follow Child's nesting through flat(Infinity)
  const flat = /** @type {(Node | string | null | undefined | false)[]} */ (/** @type {unknown[]} */ (children).flat(Infinity));
  node.append(...flat.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/**
 * A message block in place of content: `kind` empty, loading, error, unavailable or locked (not in the plan).
 * @param {'empty' | 'loading' | 'error' | 'unavailable' | 'locked'} kind
 * @param {string} title
 * @param {string} [text]
 * @param {...Child} actions
 */
export function notice(kind, title, text, ...actions) {
  return el('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-state': kind }, el('p', { class: 'notice-title' }, title), text ? el('p', {}, text) : null, actions.length ? el('p', {}, actions) : null);
}

/**
 * The block a failed read shows: "not available on this server" for a route this service lacks.
 * @param {unknown} error what the read threw
 * @param {string} what
 */
export function failure(error, what) {
  if (error instanceof ApiError && error.unavailable) return notice('unavailable', `${what} not available on this server`, 'This version of the ledger service does not offer it yet.');
  return notice('error', `Could not load ${what.toLowerCase()}`, errorText(error));
}

export const loading = (/** @type {string} */ what) => notice('loading', `Loading ${what}…`);

/**
 * A timestamp as the operator's locale shows it, with the exact ISO text as a tooltip.
 * @param {string | null | undefined} iso
 */
export function time(iso) {
  if (!iso) return '';
  return el('time', { datetime: iso, title: iso }, new Date(iso).toLocaleString());
}

export const code = (/** @type {string | null | undefined} */ text) => el('code', {}, text ?? '');

/**
 * A page title with optional actions on its right.
 * @param {string} title
 * @param {...Child} actions
 */
export function heading(title, ...actions) {
  return el('div', { class: 'view-head' }, el('h2', { id: 'view-title' }, title), el('div', { class: 'actions' }, actions));
}

/**
 * @param {string} label
 * @param {(event: Event) => unknown} onclick
 * @param {Attrs} [attrs]
 */
export const button = (label, onclick, attrs = {}) => el('button', { type: 'button', onclick, ...attrs }, label);

/** What a view shows while the key has no project yet. */
export const noProject = () =>
  notice('empty', 'No project yet', 'A program starts with a project: create one, then its asset and wallets.', el('a', { href: '#/program', class: 'button primary' }, 'Set up a program'));

/** A line under the view's title that says what the last action did (a screen reader hears it). */
export function flashLine() {
  const line = el('p', { class: 'flash', role: 'status' });
  return Object.assign(line, { say: (/** @type {string} */ text) => (line.textContent = text) });
}

/**
 * 86400 → "1 day"; null → "never".
 * @param {number | null | undefined} seconds
 */
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return 'never';
  for (const [size, unit] of /** @type {const} */ ([[86400, 'day'], [3600, 'hour'], [60, 'minute']])) {
    if (seconds % size === 0) return plural(seconds / size, unit);
  }
  return plural(seconds, 'second');
}

const plural = (/** @type {number} */ n, /** @type {string} */ unit) => `${n} ${unit}${n === 1 ? '' : 's'}`;
