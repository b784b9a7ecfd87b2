import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../db/routines.js';

/**
 * Files the browser pages load, all served by the service (no CDN: it works offline, and pages
 * make no request to another origin — CONTRACT §17). Each is read once, on first use.
 */
const FILES: Record<string, { file: string; type: string }> = {
  'react.js': { file: 'node_modules/react/umd/react.production.min.js', type: 'text/javascript' },
  'react-dom.js': { file: 'node_modules/react-dom/umd/react-dom.production.min.js', type: 'text/javascript' },
  'graphiql.js': { file: 'node_modules/graphiql/graphiql.min.js', type: 'text/javascript' },
  'graphiql.css': { file: 'node_modules/graphiql/graphiql.min.css', type: 'text/css' },
  'graphql-ws.js': { file: 'node_modules/graphql-ws/umd/graphql-ws.min.js', type: 'text/javascript' },
  'scalar.js': { file: 'node_modules/@scalar/api-reference/dist/browser/standalone.js', type: 'text/javascript' },
  'graphiql-page.js': { file: 'src/web/pages/graphiql-page.js', type: 'text/javascript' },
  'console.js': { file: 'src/web/console/console.js', type: 'text/javascript' },
  'console-api.js': { file: 'src/web/console/api.js', type: 'text/javascript' },
  'console-chart.js': { file: 'src/web/console/chart.js', type: 'text/javascript' },
  'console-forms.js': { file: 'src/web/console/forms.js', type: 'text/javascript' },
  'console-live.js': { file: 'src/web/console/live.js', type: 'text/javascript' },
  'console.css': { file: 'src/web/console/console.css', type: 'text/css' },
};

const cache = new Map<string, string>();

export function assetNames(): string[] {
  return Object.keys(FILES);
}

/** The asset's text and content type, or undefined for a name that is not served. */
export function readAsset(name: string): { text: string; type: string } | undefined {
  const entry = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!entry) return undefined;
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(projectRoot(), entry.file), 'utf8');
    cache.set(name, text);
  }
  return { text, type: `${entry.type}; charset=utf-8` };
}
