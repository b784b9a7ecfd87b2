import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses an outbound webhook may reach (CONTRACT §16): only globally reachable unicast
 * ones. Everything else names the service's own machine or network (loopback, private, link-local,
 * unique-local, carrier-grade NAT, unspecified) or nothing routable (multicast, documentation,
 * reserved), and is refused with the reason below. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, IPv4-compatible, SIIT, NAT64, 6to4) are judged by that IPv4 address.
 */
export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

type Range4 = [base: number, bits: number, reason: string];

const ip4 = (a: number, b: number, c: number, d: number): number => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

const IPV4_REFUSED: Range4[] = [
  [ip4(0, 0, 0, 0), 8, 'unspecified'],
  [ip4(10, 0, 0, 0), 8, 'private'],
  [ip4(100, 64, 0, 0), 10, 'carrier-grade NAT'],
  [ip4(127, 0, 0, 0), 8, 'loopback'],
  [ip4(169, 254, 0, 0), 16, 'link-local'],
  [ip4(172, 16, 0, 0), 12, 'private'],
  [ip4(192, 0, 0, 0), 24, 'reserved'],
  [ip4(192, 0, 2, 0), 24, 'documentation'],
  [ip4(192, 88, 99, 0), 24, 'reserved'],
  [ip4(192, 168, 0, 0), 16, 'private'],
  [ip4(198, 18, 0, 0), 15, 'reserved'],
  [ip4(198, 51, 100, 0), 24, 'documentation'],
  [ip4(203, 0, 113, 0), 24, 'documentation'],
  [ip4(224, 0, 0, 0), 4, 'multicast'],
  [ip4(240, 0, 0, 0), 4, 'reserved'],
];

function judge4(value: number): AddressVerdict {
  for (const [base, bits, reason] of IPV4_REFUSED) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if (((value & mask) >>> 0) === base) return { allowed: false, reason };
  }
  return { allowed: true };
}

function parse4(text: string): number | null {
  if (!isIPv4(text)) return null;
  const [a, b, c, d] = text.split('.').map(Number);
  return ip4(a, b, c, d);
}

/** The 8 groups of an IPv6 address (a zone `%eth0` is ignored); null when it is not one. */
export function parse6(text: string): number[] | null {
  let address = text.split('%')[0];
  if (!isIPv6(address)) return null;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const v4 = parse4(dotted[2]);
    if (v4 === null) return null;
    address = `${dotted[1]}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, tail] = address.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  const zeros = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);
  const all = [...left, ...zeros, ...right];
  return all.length === 8 ? all : null;
}

const embedded4 = (hi: number, lo: number): number => ((hi << 16) | lo) >>> 0;

function judge6(g: number[]): AddressVerdict {
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroPrefix(8)) return { allowed: false, reason: 'unspecified' };
  if (zeroPrefix(7) && g[7] === 1) return { allowed: false, reason: 'loopback' };
  // ::ffff:a.b.c.d (IPv4-mapped), ::a.b.c.d (IPv4-compatible), ::ffff:0:a.b.c.d (SIIT)
  if (zeroPrefix(5) && g[5] === 0xffff) return judge4(embedded4(g[6], g[7]));
  if (zeroPrefix(6)) return judge4(embedded4(g[6], g[7]));
  if (zeroPrefix(4) && g[4] === 0xffff && g[5] === 0) return judge4(embedded4(g[6], g[7]));
  // 64:ff9b::/96 (NAT64, well-known prefix) reaches the IPv4 address it carries
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return judge4(embedded4(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return { allowed: false, reason: 'private' };
  // 2002::/16 (6to4) carries an IPv4 address in its next 32 bits
  if (g[0] === 0x2002) return judge4(embedded4(g[1], g[2]));
  if (g[0] === 0x2001 && g[1] === 0x0db8) return { allowed: false, reason: 'documentation' };
  if (g[0] === 0x2001 && g[1] === 0) return { allowed: false, reason: 'reserved' }; // Teredo
  if (g[0] === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return { allowed: false, reason: 'reserved' }; // discard 100::/64
  if ((g[0] & 0xfe00) === 0xfc00) return { allowed: false, reason: 'unique-local' };
  if ((g[0] & 0xffc0) === 0xfe80) return { allowed: false, reason: 'link-local' };
  if ((g[0] & 0xffc0) === 0xfec0) return { allowed: false, reason: 'private' }; // site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return { allowed: false, reason: 'multicast' };
  // anything else outside 2000::/3 (global unicast) is unassigned
  if ((g[0] & 0xe000) !== 0x2000) return { allowed: false, reason: 'reserved' };
  return { allowed: true };
}

/** The verdict on one IP address in text form (IPv4 dotted or IPv6, without brackets); null when it is no IP address. */
export function judgeAddress(address: string): AddressVerdict | null {
  const v4 = parse4(address);
  if (v4 !== null) return judge4(v4);
  const v6 = parse6(address);
  return v6 ? judge6(v6) : null;
}
