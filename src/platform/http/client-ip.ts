import ipaddr from 'ipaddr.js';

/** Parses `1.2.3.4`, `10.0.0.0/8`, `::1`, `fd00::/8` (a bare address is its own /32 or /128); throws on anything else. */
export function parseIpRange(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (entry.includes('/')) return ipaddr.parseCIDR(entry);
  const addr = ipaddr.parse(entry);
  return [addr, addr.kind() === 'ipv4' ? 32 : 128];
}

/**
 * A matcher for RATE_LIMIT_TRUSTED_IPS: servers whose requests carry many clients (a storefront's
 * server, a load test on this machine) and so skip per-IP limits. IPv4-mapped IPv6 addresses
 * (`::ffff:127.0.0.1`, how a dual-stack socket reports IPv4 clients) match their IPv4 range.
 */
export function trustedIps(entries: string[]): (ip: string) => boolean {
  const ranges = entries.map(parseIpRange);
  if (!ranges.length) return () => false;
  const cache = new Map<string, boolean>();
  return (ip) => {
    let hit = cache.get(ip);
    if (hit === undefined) {
      hit = false;
      if (ipaddr.isValid(ip)) {
        const addr = ipaddr.process(ip);
        hit = ranges.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
      }
      if (cache.size > 10_000) cache.clear();
      cache.set(ip, hit);
    }
    return hit;
  };
}

/**
 * The key a per-client limit counts under: the address, or for IPv6 its /64, since one
 * subscriber usually holds a whole /64 and could otherwise rotate through it.
 */
export function clientKey(ip: string): string {
  if (!ip.includes(':')) return ip; // IPv4, the common case, without parsing
  if (ip.startsWith('::ffff:') && ip.includes('.')) return ip.slice(7);
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  return `${(addr as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}
