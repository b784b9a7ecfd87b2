// Summary of a V8 .cpuprofile (node --cpu-prof): self time by function and by package.

import { readFileSync } from 'node:fs';

function where(url) {
  if (!url) return '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const own = /\/(dist\/src\/[^?]+|bench\/[^?]+)$/.exec(url);
  if (own) return own[1].replace(/\/[^/]+$/, '/');
  if (url.startsWith('node:')) return 'node:internal';
  return url;
}

export function summarizeProfile(file, top = 15) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const functions = new Map();
  const packages = new Map();
  for (const [id, micros] of self) {
    const { callFrame } = byId.get(id);
    const name = callFrame.functionName || '(anonymous)';
    const file = callFrame.url ? `${callFrame.url.replace(/^file:\/\/.*?\/(node_modules|dist|bench)\//, '$1/')}:${callFrame.lineNumber + 1}` : '';
    const key = `${name} ${file}`.trim();
    functions.set(key, (functions.get(key) ?? 0) + micros);
    const pkg = ['(idle)', '(program)', '(garbage collector)'].includes(name) ? name : where(callFrame.url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + micros);
  }
  const rank = (map) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, micros]) => ({ key, ms: Math.round(micros / 1000), percent: Math.round((1000 * micros) / total) / 10 }));
  return { file, totalMs: Math.round(total / 1000), functions: rank(functions), packages: rank(packages) };
}
