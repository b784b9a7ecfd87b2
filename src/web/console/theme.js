// Light and dark: the system's preference (prefers-color-scheme) unless the operator picks one,
// which is kept in localStorage and set as <html data-theme>; console.css reads both.
import { el } from './dom.js';

const KEY = 'ledger.console.theme';
/** @type {Record<string, string>} */
const NEXT = { auto: 'dark', dark: 'light', light: 'auto' };

/** @param {string} theme auto, dark or light */
function apply(theme) {
  if (theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

export function themeToggle() {
  let theme = localStorage.getItem(KEY) ?? 'auto';
  apply(theme);
  const button = el('button', { type: 'button', id: 'theme', class: 'ghost', title: 'Switch between the system theme, dark and light' });
  const show = () => (button.textContent = `Theme: ${theme}`);
  button.addEventListener('click', () => {
    theme = NEXT[theme] ?? 'auto';
    if (theme === 'auto') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
    apply(theme);
    show();
  });
  show();
  return button;
}
