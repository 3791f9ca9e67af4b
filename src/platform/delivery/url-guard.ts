import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * SSRF guard for outbound deliveries (webhooks, license callbacks). In production a URL someone
 * else supplied must reach only the public internet: an address is allowed when ipaddr.js
 * classifies it as global `unicast` (after unwrapping IPv4-mapped IPv6). Everything else is
 * refused: loopback, private (RFC 1918, fc00::/7), link-local, carrier-grade NAT (100.64.0.0/10,
 * where some clouds keep their metadata service), reserved and benchmarking ranges, multicast,
 * broadcast, unspecified, and the IPv6 forms that carry an IPv4 address inside (NAT64
 * 64:ff9b::/96, 6to4 2002::/16, Teredo), whose IPv4 part could be any of the above.
 */

/** True for addresses a production delivery must not target; unparseable input counts as blocked. */
export function isPrivateAddress(ip: string): boolean {
  const zoneless = ip.split('%')[0];
  // node:net's strict forms only: ipaddr.js would also read inet_aton's `1.2.3` as 1.2.0.3.
  if (!isIP(zoneless)) return true;
  return ipaddr.process(zoneless).range() !== 'unicast';
}

/** The URL's host as an IP literal (brackets removed), or null for a name. */
function literalHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

export class BlockedAddressError extends Error {}

const blocked = (host: string, ip: string) =>
  new BlockedAddressError(`${host} resolves to ${ip}, a private or local address, which is not allowed`);

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
 * the engine checks those with refusePrivateLiteral first.
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
