import { randomBytes } from 'node:crypto';

/**
 * Headers of the browser pages (CONTRACT §18). Every source is the service's own origin: scripts,
 * styles, fonts, images and connections (fetch and the subscription WebSocket, which CSP's
 * 'self' covers as ws:/wss: of the same host) come from 'self'. The one exception is inline
 * `<style>` elements, which Scalar and GraphiQL's editors insert from their scripts: they carry
 * the page's nonce, fresh for every response (pages/csp-shim.js hands it to them). No 'unsafe-inline',
 * no 'unsafe-eval', no `data:`; nothing may frame the pages, and no referrer leaves them.
 */
export function pageHeaders(nonce: string): Record<string, string> {
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { 'content-security-policy': policy, 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };
}

/** 128 random bits, base64 (CSP nonces must be unguessable and fresh per response). */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}
