import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

/** TRUST_PROXY as config.ts reads it: no proxy, every hop, how many proxies, or their addresses/CIDR ranges. */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's trust function: whether `addr`, `hop` steps from this server, is one of our proxies. */
export type ProxyTrust = (addr: string, hop: number) => boolean;

/**
 * The one trust function of this server: app.ts gives it to Fastify (request.ip), so every
 * limit counts a client under the same address.
 * proxy-addr reads X-Forwarded-For from the right, from the socket's address on: each trusted
 * hop hands on to the entry before it, and the first address not trusted is the client. A
 * proxy that appends (nginx's $proxy_add_x_forwarded_for, AWS ALB, Cloudflare) leaves whatever
 * the client wrote on the left, so only `true` ever reaches it. `false`: the socket's address.
 * Throws on an address or range proxy-addr cannot read (config.ts validates with it).
 */
export function proxyTrust(setting: TrustProxy): ProxyTrust | false {
  if (setting === false || setting === 0) return false;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_addr, hop) => hop < setting;
  if (!setting.length) throw new TypeError('no proxy address');
  return proxyAddr.compile(setting);
}

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
