import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
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
  'csp-shim.js': { file: 'src/web/pages/csp-shim.js', type: 'text/javascript' },
  'graphiql-page.js': { file: 'src/web/pages/graphiql-page.js', type: 'text/javascript' },
  'graphiql-page.css': { file: 'src/web/pages/graphiql-page.css', type: 'text/css' },
  'docs-page.js': { file: 'src/web/pages/docs-page.js', type: 'text/javascript' },
};

/**
 * A folder served as it is: each file whose extension is in TYPES, under its own name, so the
 * relative imports of the console's modules (`./api.js`) resolve to the files they name. The list
 * is the folder's files, read at first use (not at start): a new module is served without a list
 * to keep, and a name not in the folder (`../x`, `tsconfig.json`, `types.d.ts`) is not served.
 */
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** `folder`: absolute, or relative to the project's root. */
export function servedFolder(folder: string): { names(): string[]; read(name: string): Asset | undefined } {
  const dir = () => path.resolve(projectRoot(), folder);
  let files: Map<string, Asset | string> | undefined; // name → its asset once read, its content type before
  const list = () =>
    (files ??= new Map(
      readdirSync(dir(), { withFileTypes: true })
        .filter((entry) => entry.isFile() && Object.hasOwn(TYPES, path.extname(entry.name)))
        .map((entry) => [entry.name, TYPES[path.extname(entry.name)]]),
    ));
  return {
    names: () => [...list().keys()],
    read(name) {
      const entry = list().get(name);
      if (typeof entry !== 'string') return entry;
      const asset = readText(path.join(dir(), name), entry);
      list().set(name, asset);
      return asset;
    },
  };
}

/** The web console (src/web/console/), served as /static/console/<file>. */
export const consoleAssets = servedFolder('src/web/console');

export interface Asset {
  body: string | Buffer;
  type: string;
}

const cache = new Map<string, Asset>();

export function assetNames(): string[] {
  return Object.keys(FILES);
}

/** The asset's body and content type, or undefined for a name that is not served. */
export function readAsset(name: string): Asset | undefined {
  const cached = cache.get(name);
  if (cached) return cached;
  const entry = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!entry) return name.startsWith(EXTRACTED) ? extractedAsset(name) : undefined;
  const asset = readText(path.join(projectRoot(), entry.file), entry.type);
  cache.set(name, asset);
  return asset;
}

function readText(file: string, type: string): Asset {
  let text = readFileSync(file, 'utf8');
  if (type === 'text/css') text = extractDataUris(text);
  return { body: text, type: `${type}; charset=utf-8` };
}

/**
 * GraphiQL's stylesheet embeds its fonts and images as `data:` URIs, which the pages' policy
 * (only 'self') refuses: each becomes a file of its own, `/static/inline-<digest>.<ext>`.
 */
const EXTRACTED = 'inline-';
const DATA_URI = /url\((["']?)data:([a-z0-9.+/-]+);base64,([A-Za-z0-9+/=]+)\1\)/g;
const EXTENSIONS: Record<string, string> = { 'font/woff2': 'woff2', 'font/woff': 'woff', 'image/png': 'png', 'image/svg+xml': 'svg', 'image/gif': 'gif' };

function extractDataUris(css: string): string {
  return css.replace(DATA_URI, (whole, _quote: string, type: string, base64: string) => {
    const extension = EXTENSIONS[type];
    if (!extension) return whole;
    const body = Buffer.from(base64, 'base64');
    const name = `${EXTRACTED}${createHash('sha256').update(body).digest('hex').slice(0, 16)}.${extension}`;
    cache.set(name, { body, type });
    return `url(/static/${name})`;
  });
}

/** An extracted file asked for before its stylesheet was read here (a browser that cached the stylesheet): read them all. */
function extractedAsset(name: string): Asset | undefined {
  for (const [file, entry] of Object.entries(FILES)) if (entry.type === 'text/css') readAsset(file);
  return cache.get(name);
}
