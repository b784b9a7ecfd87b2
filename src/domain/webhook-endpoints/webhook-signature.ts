import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: more than the 24 CONTRACT §16 asks for; their base64 is standard and padded (44 characters). */
const SECRET_BYTES = 32;

/** A new endpoint secret: `whsec_` + base64 of random bytes (the Standard Webhooks form). */
export const newSecret = (): string => SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');

/**
 * The Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed with
 * the base64-decoded part of the secret after `whsec_` (as every Standard Webhooks library reads it).
 */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
}

/** The three Standard Webhooks headers of one attempt (`timestamp` in seconds). */
export function signatureHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(secret, id, timestamp, body) };
}
