import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { validationError } from '../errors.js';
import { judgeAddress } from './ip-ranges.js';
import { boundedResolver, type Resolver } from './bounded-resolver.js';

export type { Resolver };

/** Why a delivery could not be sent to its URL (the rule it broke; recorded as the attempt's `error`). */
export class RefusedTargetError extends Error {}

/** Appended to every refusal: what the rule is and how a development set-up lifts it. */
const RULE = 'webhook URLs must reach a public address; set LEDGER_WEBHOOK_ALLOW_PRIVATE=true to allow private ones';

const isLocalhostName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

/** The host of a parsed URL as an address or name: no IPv6 brackets, no trailing root dot. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();

/**
 * Where outbound webhooks may go (CONTRACT §16). URLs are read by the WHATWG parser (`new URL`),
 * the one every client uses, so whatever notation a client writes (`http://2130706433/`,
 * `http://0x7f.1/`, `http://[::ffff:127.0.0.1]/`) is judged as the address it really names.
 * Unless `allowPrivate`, refused: `localhost`, and any host that is or resolves to an address
 * outside the public unicast space (ip-ranges.ts). At delivery the same check runs again inside
 * the HTTP client's own `lookup`, so the connection goes to exactly the addresses just checked: a
 * name re-pointed after creation (DNS rebinding) cannot slip through between check and connect.
 */
export class UrlGuard {
  constructor(
    readonly allowPrivate: boolean,
    private readonly resolve: Resolver = boundedResolver(),
  ) {}

  /**
   * Checks a URL a client gives; answers it normalised (what will be requested), or throws
   * validation_error on `url`. A refusal names the rule broken (CONTRACT §18), never an address a
   * name resolved to: that would tell a client what the service's network holds.
   */
  async check(text: string): Promise<string> {
    const url = parseUrl(text);
    if (this.allowPrivate) return url.href;
    const host = hostOf(url);
    const refusal = (problem: string) => validationError('url', `${problem}; ${RULE}`);
    const literal = judgeAddress(host);
    if (literal) {
      if (!literal.allowed) throw refusal(`is a ${literal.reason} address`);
      return url.href;
    }
    if (isLocalhostName(host)) throw refusal('is localhost');
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolve(host);
    } catch {
      throw validationError('url', `host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw validationError('url', `host ${host} does not resolve`);
    for (const { address } of addresses) {
      const verdict = judgeAddress(address);
      if (!verdict?.allowed) throw refusal(`resolves to a ${verdict?.reason ?? 'non-IP'} address`);
    }
    return url.href;
  }

  /** At delivery, before connecting: refuses a stored URL whose host is a refused literal or localhost (names are checked by `lookup`). */
  checkTarget(url: URL): void {
    if (this.allowPrivate) return;
    const host = hostOf(url);
    const literal = judgeAddress(host);
    if (literal && !literal.allowed) throw new RefusedTargetError(`refused: ${host} is a ${literal.reason} address`);
    if (isLocalhostName(host)) throw new RefusedTargetError('refused: localhost');
  }

  /**
   * The HTTP client's `lookup`: resolves, refuses when any address is not public (unless
   * `allowPrivate`), and hands the client exactly the addresses it checked. Node calls it only
   * for names (an IP literal is connected to as is, and checked by `checkTarget`).
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolveChecked(hostname).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? addresses.filter((a) => a.family === family) : addresses;
        if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) return callback(null, usable);
        callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(Object.assign(error, { code: (error as { code?: string }).code ?? 'EREFUSED' }), '', 0),
    );
  };

  private async resolveChecked(hostname: string): Promise<LookupAddress[]> {
    const addresses = await this.resolve(hostname);
    if (this.allowPrivate) return addresses;
    for (const { address } of addresses) {
      const verdict = judgeAddress(address);
      if (!verdict?.allowed) throw new RefusedTargetError(`refused: ${hostname} resolves to a ${verdict?.reason ?? 'non-IP'} address; ${RULE}`);
    }
    return addresses;
  }
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw validationError('url', 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw validationError('url', 'must be an http or https URL');
  if (!url.hostname) throw validationError('url', 'must name a host');
  return url;
}
