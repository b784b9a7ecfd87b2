import type { LookupAddress } from 'node:dns';
import { lookup, Resolver as DnsResolver } from 'node:dns/promises';

/** Resolves a host name to every address it has. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface BoundedResolverOptions {
  /** One DNS query's time-out (c-ares `timeout`). */
  queryTimeoutMs?: number;
  /** Queries per name server before giving up (c-ares `tries`). */
  tries?: number;
  /** The whole resolution, whatever the servers do: past it, the queries are cancelled. */
  deadlineMs?: number;
  /** DNS servers (tests); default: the system's (resolv.conf). */
  servers?: string[];
}

/** DNS's own answers that a name has no address: the name may still be in /etc/hosts. */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA']);

const timedOut = (hostname: string, ms: number) => Object.assign(new Error(`${hostname} did not resolve within ${ms} ms`), { code: 'ETIMEOUT' });

/**
 * Resolves host names within a deadline, off the libuv thread pool. `dns.lookup` (getaddrinfo)
 * runs on the pool's four threads and cannot be cut: a name server that never answers holds a
 * thread as long as the system resolver waits (resolv.conf's timeout × attempts), and four such
 * names stall every fs, crypto and zlib call of the process. c-ares (`dns.Resolver`) queries on
 * the event loop with its own time-out and tries, and is cancelled at the deadline.
 *
 * DNS does not know the names of /etc/hosts (`localhost`, a container's neighbours): only when
 * DNS has answered that a name has no address is the system resolver asked (it reads the hosts
 * file), within what is left of the deadline. A server that does not answer never reaches it.
 */
export function boundedResolver({ queryTimeoutMs = 1_000, tries = 2, deadlineMs = 3_000, servers }: BoundedResolverOptions = {}): Resolver {
  return async (hostname) => {
    const started = Date.now();
    const dns = new DnsResolver({ timeout: queryTimeoutMs, tries });
    if (servers) dns.setServers(servers);
    const deadline = setTimeout(() => dns.cancel(), deadlineMs);
    let answers: PromiseSettledResult<LookupAddress[]>[];
    try {
      answers = await Promise.allSettled([
        dns.resolve4(hostname).then((found) => found.map((address) => ({ address, family: 4 }))),
        dns.resolve6(hostname).then((found) => found.map((address) => ({ address, family: 6 }))),
      ]);
    } finally {
      clearTimeout(deadline);
    }
    const addresses = answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
    if (addresses.length > 0) return addresses;
    const codes = answers.map((a) => (a.status === 'rejected' ? (a.reason as NodeJS.ErrnoException).code : 'ENODATA'));
    if (!codes.every((code) => code !== undefined && NO_SUCH_NAME.has(code))) {
      const cancelled = codes.includes('ECANCELLED');
      throw cancelled ? timedOut(hostname, deadlineMs) : (answers.find((a) => a.status === 'rejected') as PromiseRejectedResult).reason;
    }
    return hostsFile(hostname, deadlineMs - (Date.now() - started), deadlineMs);
  };
}

/** The system resolver (the hosts file first), raced against what is left of the deadline. */
async function hostsFile(hostname: string, leftMs: number, deadlineMs: number): Promise<LookupAddress[]> {
  if (leftMs <= 0) throw timedOut(hostname, deadlineMs);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      lookup(hostname, { all: true, order: 'verbatim' }),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(timedOut(hostname, deadlineMs)), leftMs))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
