import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * SSRF guard for webhook targets. In production an admin-supplied URL must not reach the
 * instance's own network: loopback, private (RFC 1918, fc00::/7), link-local, unspecified.
 */

function ipv4Bytes(ip: string): number[] | null {
  const parts = ip.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

/** 16 bytes of an IPv6 address (with `::` and a trailing dotted IPv4 allowed), or null. */
function ipv6Bytes(ip: string): number[] | null {
  const zoneless = ip.split('%')[0];
  const halves = zoneless.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    const items = s.split(':');
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (i === items.length - 1 && item.includes('.')) {
        const v4 = ipv4Bytes(item);
        if (!v4) return null;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
      } else if (/^[0-9a-f]{1,4}$/i.test(item)) {
        out.push(parseInt(item, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const words = [...head, ...new Array(missing).fill(0), ...tail];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function privateV4([a, b]: number[]): boolean {
  return (
    a === 0 || // 0.0.0.0/8: "this network", 0.0.0.0 reaches the local host
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

/** True for addresses a production webhook must not target; unparseable input counts as blocked. */
export function isPrivateAddress(ip: string): boolean {
  const v4 = ipv4Bytes(ip);
  if (v4) return privateV4(v4);
  const v6 = ipv6Bytes(ip);
  if (!v6) return true;
  const zeroPrefix = (n: number) => v6.slice(0, n).every((b) => b === 0);
  if (zeroPrefix(15) && (v6[15] === 0 || v6[15] === 1)) return true; // :: and ::1
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible form carry an IPv4 address.
  if (zeroPrefix(10) && v6[10] === 0xff && v6[11] === 0xff) return privateV4(v6.slice(12));
  if (zeroPrefix(12)) return privateV4(v6.slice(12));
  if ((v6[0] & 0xfe) === 0xfc) return true; // fc00::/7 unique local
  if (v6[0] === 0xfe && (v6[1] & 0xc0) === 0x80) return true; // fe80::/10 link-local
  return false;
}

/** The URL's host as an IP literal (brackets removed), or null for a name. */
function literalHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

export class BlockedAddressError extends Error {}

const blocked = (host: string, ip: string) => new BlockedAddressError(`${host} resolves to ${ip}, a private or local address, which is not allowed`);

/** Throws for a private IP literal; true when the host was a literal (so no lookup will happen). */
export function refusePrivateLiteral(url: URL): boolean {
  const literal = literalHost(url);
  if (literal && isPrivateAddress(literal)) throw blocked(url.hostname, literal);
  return literal !== null;
}

/** Resolves the URL's host (all addresses) and throws when any of them is private. */
export async function assertPublicUrl(url: URL): Promise<void> {
  if (refusePrivateLiteral(url)) return;
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(url.hostname, { all: true }, (err, found) => (err ? reject(err) : resolve(found))),
  );
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) throw blocked(url.hostname, bad.address);
}

/**
 * A `lookup` for http.request that refuses private addresses at connect time, so a DNS answer
 * that changed since the check (rebinding) cannot slip through. IP literals skip lookups:
 * the sender checks those with refusePrivateLiteral first.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, found) => {
    if (err) return (callback as (e: Error) => void)(err);
    const bad = found.find((a) => isPrivateAddress(a.address));
    if (bad) return (callback as (e: Error) => void)(blocked(hostname, bad.address));
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, found);
    (callback as (e: null, a: string, f: number) => void)(null, found[0].address, found[0].family);
  });
};
