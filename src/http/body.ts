import type { IncomingMessage } from 'node:http';
import { LedgerError, validationError } from '../domain/errors.js';
import { ExactNumber, plainDecimal } from '../domain/money.js';
import { isStorableText } from '../domain/shared/storable-text.js';

export const MAX_BODY_BYTES = 100 * 1024;
/** Deeper JSON is refused before it reaches PostgreSQL, whose jsonb parser would fail on it. */
export const MAX_JSON_DEPTH = 64;

/** Reads a JSON body in the contract's order: size (413), media type (415), syntax (400). */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const hasBody = declared !== undefined ? Number(declared) > 0 : req.headers['transfer-encoding'] !== undefined;
  const contentType = req.headers['content-type'];
  if (!hasBody && contentType === undefined) return undefined;
  const raw = await readRaw(req);
  if (raw.length === 0 && contentType === undefined) return undefined;
  if (!isJson(contentType)) {
    throw new LedgerError('unsupported_media_type', 'Content-Type must be application/json', { content_type: contentType ?? null });
  }
  const text = raw.toString('utf8');
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new LedgerError('invalid_json', 'request body is not valid JSON');
  }
  assertStorable(value, '', 0, MAY_HOLD_UNSTORABLE_TEXT.test(text));
  return value;
}

/**
 * JSON.parse, except that a number whose double would say another decimal value than its text
 * (82241598.62827704 parses to …703; 1e400 to Infinity) becomes an ExactNumber holding the text.
 * Amount fields read it exactly; every other numeric field refuses it (400) — never a silent
 * change. Uses the reviver's source text (`context.source`, Node ≥ 22) — only when the text has
 * a number that might need it: a reviver makes JSON.parse several times slower (the profile of a
 * GraphQL `_entities` request of 100 representations put it first among the service's functions),
 * and a number of at most 15 characters without an exponent always parses exactly (sameDecimal).
 */
export function parseJson(text: string): unknown {
  return MAYBE_INEXACT_NUMBER.test(text) ? JSON.parse(text, exactNumbers) : JSON.parse(text);
}

/**
 * A number token (after `[`, `,`, `:` or at the start, whitespace allowed) of 16 characters or
 * more, or with an exponent. Text inside strings may match too, which only costs the slow path.
 */
const MAYBE_INEXACT_NUMBER = /(?:^|[[,:])[ \t\n\r]*(?:[-\d][-\d.]{15}|-?\d[\d.]*[eE])/;

function exactNumbers(_key: string, value: unknown, context?: { source?: string }): unknown {
  return typeof value === 'number' && context?.source !== undefined ? ExactNumber.from(value, context.source) : value;
}

/**
 * JSON that parses but that PostgreSQL cannot store as sent: NUL in a string or key (text and
 * jsonb refuse it), an unpaired surrogate (it would be silently replaced by U+FFFD), nesting
 * over MAX_JSON_DEPTH, an ExactNumber beyond any sane magnitude (over 400 characters written
 * out; a double could not hold it either). One check for every body (REST and GraphQL
 * variables): 400 naming the field. `checkText` false skips the strings and keys (the body's text
 * showed none could be unstorable: MAY_HOLD_UNSTORABLE_TEXT).
 */
export function assertStorable(value: unknown, path = '', depth = 0, checkText = true): void {
  const field = path || 'body';
  if (typeof value === 'string') {
    if (checkText && !isStorableText(value)) throw validationError(field, 'must not contain NUL characters or unpaired surrogates');
    return;
  }
  if (value instanceof ExactNumber) {
    // 1e999999 would be stored with a million digits (jsonb keeps numbers exactly): bounded here
    if (plainDecimal(value.text) === null) throw validationError(field, 'is a number out of range');
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_JSON_DEPTH) throw validationError(field, `is nested deeper than ${MAX_JSON_DEPTH} levels`);
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path ? `${path}.${key}` : key;
    if (checkText && !isStorableText(key)) throw validationError(itemPath, 'names a key with NUL characters or unpaired surrogates');
    assertStorable(item, itemPath, depth + 1, checkText);
  }
}

/**
 * Whether a JSON text may hold a string PostgreSQL cannot store. JSON writes NUL only as the
 * escape \\u0000 (a raw control character is a syntax error) and a lone surrogate only as an
 * escape \\uD800–\\uDFFF (UTF-8 decoding turns invalid bytes into U+FFFD); any surrogate in the
 * text counts too (an emoji: the strings are then checked one by one, as they would be anyway).
 */
const MAY_HOLD_UNSTORABLE_TEXT = /\\u(?:0000|[dD][89a-fA-F])|[\ud800-\udfff]/;

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...params] = contentType.toLowerCase().split(';').map((s) => s.trim());
  if (type !== 'application/json') return false;
  const charset = params.find((p) => p.startsWith('charset='));
  return !charset || charset === 'charset=utf-8' || charset === 'charset="utf-8"';
}

function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function tooLarge(): LedgerError {
  return new LedgerError('payload_too_large', `request body exceeds ${MAX_BODY_BYTES} bytes`, { limit: MAX_BODY_BYTES });
}
