import { proxyTrust, type TrustProxy } from '../http/client-ip.ts';
import { ConfigError, type Env, originList } from './env.ts';

/** Who the clients are: the proxies in front, and the browser origins allowed per surface. */
export interface ClientsConfig {
  /**
   * TRUST_PROXY: which X-Forwarded-For entries are our proxies' (http/client-ip.ts proxyTrust): none
   * (false, the socket's address is the client), how many proxies are in front (1), their
   * addresses or CIDR ranges, or every entry (true, refused in production).
   */
  trustProxy: TrustProxy;
  /** Browser origins allowed per surface (STORE_CORS, ADMIN_CORS, AUTH_CORS, comma-separated, as in Medusa). */
  cors: Record<'store' | 'admin' | 'auth', string[]>;
}

/** proxy-addr's names for ranges, and an IPv4 address with an optional prefix length or netmask. */
const IP_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const DOTTED_IPV4_RANGE = /^\d{1,3}(\.\d{1,3}){3}(\/(\d{1,2}|\d{1,3}(\.\d{1,3}){3}))?$/;

/**
 * TRUST_PROXY as Fastify's trustProxy and proxy-addr take it. `true` believes the leftmost
 * X-Forwarded-For entry, which the client writes itself behind a proxy that appends to the
 * header (nginx's $proxy_add_x_forwarded_for, AWS ALB, Cloudflare): any address, a trusted one
 * included, for every per-address limit. Production needs the proxies counted or named instead.
 */
function trustProxyVar(env: Env, production: boolean): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') {
    if (production)
      throw new ConfigError(
        'TRUST_PROXY=true is refused when NODE_ENV=production: behind a proxy that appends to X-Forwarded-For ' +
          '(nginx, AWS ALB, Cloudflare) a client picks its own address; set the number of proxies in front ' +
          '(TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.0/8)',
      );
    return true;
  }
  const bad = new ConfigError(
    `TRUST_PROXY must be a number of proxies (1), their addresses or CIDR ranges (10.0.0.0/8,127.0.0.1), false or true, got "${raw}"`,
  );
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (!Number.isSafeInteger(hops)) throw bad;
    return hops === 0 ? false : hops;
  }
  const entries = raw.split(',').map((e) => e.trim());
  // proxy-addr also reads `1.5` as 1.0.0.5 (inet_aton's shorthand): for IPv4, four parts or nothing.
  if (entries.some((e) => !e.includes(':') && !IP_RANGE_NAMES.includes(e) && !DOTTED_IPV4_RANGE.test(e))) throw bad;
  try {
    proxyTrust(entries);
  } catch {
    throw bad;
  }
  return entries;
}

export function clientsConfig(env: Env, production: boolean): ClientsConfig {
  return {
    trustProxy: trustProxyVar(env, production),
    cors: {
      // Development defaults: the Medusa Next.js starter (8000) and a local admin dev server (5173).
      store: originList(env.STORE_CORS, production ? '' : 'http://localhost:8000'),
      admin: originList(env.ADMIN_CORS, production ? '' : 'http://localhost:5173'),
      auth: originList(env.AUTH_CORS, production ? '' : 'http://localhost:8000,http://localhost:5173'),
    },
  };
}
