// DOM building without a framework. Never a `style` attribute or inline handler: the page's
// Content-Security-Policy refuses both (styles come from console.css, handlers are listeners).
import { errorText } from './console-api.js';

/** `el('button', {type: 'button', onclick}, 'Save')`: `on*` become listeners, false/null attributes are left out. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** A message block in place of content: `kind` empty, loading, error, unavailable or locked (not in the plan). */
export function notice(kind, title, text, ...actions) {
  return el('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-state': kind }, el('p', { class: 'notice-title' }, title), text ? el('p', {}, text) : null, actions.length ? el('p', {}, actions) : null);
}

/** The block a failed read shows: "not available on this server" for a route this service lacks. */
export function failure(error, what) {
  if (error.unavailable) return notice('unavailable', `${what} not available on this server`, 'This version of the ledger service does not offer it yet.');
  return notice('error', `Could not load ${what.toLowerCase()}`, errorText(error));
}

export const loading = (what) => notice('loading', `Loading ${what}…`);

/** A timestamp as the operator's locale shows it, with the exact ISO text as a tooltip. */
export function time(iso) {
  if (!iso) return '';
  return el('time', { datetime: iso, title: iso }, new Date(iso).toLocaleString());
}

export const code = (text) => el('code', {}, text ?? '');

/** A page title with optional actions on its right. */
export function heading(title, ...actions) {
  return el('div', { class: 'view-head' }, el('h2', { id: 'view-title' }, title), el('div', { class: 'actions' }, actions));
}

export const button = (label, onclick, attrs = {}) => el('button', { type: 'button', onclick, ...attrs }, label);

/** What a view shows while the key has no project yet. */
export const noProject = () =>
  notice('empty', 'No project yet', 'A program starts with a project: create one, then its asset and wallets.', el('a', { href: '#/program', class: 'button primary' }, 'Set up a program'));

/** A line under the view's title that says what the last action did (a screen reader hears it). */
export function flashLine() {
  const line = el('p', { class: 'flash', role: 'status' });
  line.say = (text) => (line.textContent = text);
  return line;
}

/** 86400 → "1 day"; null → "never". */
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return 'never';
  for (const [size, unit] of [[86400, 'day'], [3600, 'hour'], [60, 'minute']]) {
    if (seconds % size === 0) return plural(seconds / size, unit);
  }
  return plural(seconds, 'second');
}

const plural = (n, unit) => `${n} ${unit}${n === 1 ? '' : 's'}`;
