import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { requestId } from '../ids.ts';
import { clientAddress, type ProxyTrust } from './client-ip.ts';
import { AMOUNT_UNITS_HEADER } from '../money/hooks.ts';
import type { Readiness } from './readiness.ts';
import { lightRequestCost } from './store-limits.ts';
import type { StoreScope } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The store's front door (set up in app.ts); the products routes attach their cache to it. */
    repeatReads: RepeatReads;
  }
}

/** An answer kept for a repeat of the same request, and what that request costs of a client's budget. */
export interface RepeatAnswer {
  body: Buffer;
  cost: number;
}

/** What the key of an answer is kept under, with its cost (from `RepeatReads.keyOf`). */
export interface RepeatKey {
  key: string;
  cost: number;
}

/** Where answers are kept, each for the version of the data it was read at (the products' StoreCache). */
export interface RepeatSource {
  /** The version a request arriving now is to be answered at. */
  current(): number | Promise<number>;
  recall(key: string, version: number): RepeatAnswer | undefined;
}

interface Parts {
  config: Config;
  clock: Clock;
  readiness: Readiness;
  /** TRUST_PROXY's trust function, the one Fastify's request.ip uses (client-ip.ts proxyTrust). */
  trustProxy: ProxyTrust | false;
  /** The publishable key's scope as this instance holds it (api-keys/store-guard.ts), undefined when not held. */
  heldScope(token: string, nowMs: number): StoreScope | null | undefined;
  /** Spends a client's store budget (store-limits.ts); the ms to wait when it is spent. */
  charge(raw: IncomingMessage, ip: string, cost: number): number;
}

/**
 * The front door of the store's hot reads. A storefront asks for the same catalog
 * pages again and again; once Fastify has answered one, its answer is kept (by the products'
 * StoreCache, for the catalog version it was read at), and a repeat of exactly that request is
 * answered here, on Node's own request event, before Fastify builds a request, routes it and
 * runs a dozen hooks for it. That pipeline was two thirds of a cached list's CPU.
 *
 * Only what needs no judgement is answered here: a GET without a body, cookie or Authorization
 * (customers and sessions go the whole way), with a publishable key this instance holds as
 * valid, asking for a light page, when request logging is off and the instance is not draining,
 * for a version the data still has. What the hooks would do is done the same way: the same rate
 * budget is spent, the same CORS and x-request-id headers are written. Everything else, a miss
 * included, goes on to Fastify unchanged, so errors (401, 429, 503) come from one place.
 */
export class RepeatReads {
  /** Requests answered here since start (tests tell the two paths apart by it). */
  answered = 0;
  private source?: { prefix: string; answers: RepeatSource };
  private readonly clientIp: (raw: IncomingMessage) => string;

  constructor(private readonly parts: Parts) {
    this.clientIp = clientAddress(parts.trustProxy);
  }

  /** Requests under `prefix` are answered from `answers` (one source: the store products' cache). */
  attach(prefix: string, answers: RepeatSource): void {
    this.source = { prefix, answers };
  }

  /** From the app's close on, every request goes to Fastify, which answers it while it closes. */
  close(): void {
    this.source = undefined;
  }

  /**
   * The key a request's answer may be kept under for its repeats, or undefined when such a
   * request is not answered here. `scope` is the publishable key's, as the store guard found it.
   */
  keyOf(req: FastifyRequest, scope: StoreScope): RepeatKey | undefined {
    // The query is validated by now: `limit` is a number or absent, as the rate limit's hook read it.
    const cost = lightRequestCost(req.query);
    if (cost === null) return undefined;
    const key = this.rawKey(req.raw, scope);
    return key === undefined ? undefined : { key, cost };
  }

  /** Node's request listener: answers a repeat, or hands the request to Fastify (`next`). */
  serve(raw: IncomingMessage, res: ServerResponse, next: () => void): void {
    const source = this.source;
    const key = source && this.keyOfRaw(raw, source.prefix);
    if (!source || key === undefined) {
      next();
      return;
    }
    const version = source.answers.current();
    if (typeof version === 'number') {
      this.answer(raw, res, next, source.answers.recall(key, version));
      return;
    }
    // PostgreSQL: the version is read for every request arriving together; shutdown waits for us.
    this.parts.readiness.begin();
    version
      .then(
        (v) => this.answer(raw, res, next, source.answers.recall(key, v)),
        () => next(), // Fastify's own read of the version fails again and answers the 503
      )
      .catch(() => res.destroy())
      .finally(() => this.parts.readiness.end());
  }

  /** The key a repeat of this request would be kept under, if it may be answered here at all. */
  private keyOfRaw(raw: IncomingMessage, prefix: string): string | undefined {
    const { config, readiness, clock } = this.parts;
    if (config.logRequests || readiness.isDraining || !raw.url?.startsWith(prefix)) return undefined;
    const token = raw.headers['x-publishable-api-key'];
    if (typeof token !== 'string' || token === '') return undefined;
    const scope = this.parts.heldScope(token, clock.now().getTime());
    return scope ? this.rawKey(raw, scope) : undefined;
  }

  /** The server Fastify listens with: every request passes `serve` first. */
  serverFactory = (fastify: (raw: IncomingMessage, res: ServerResponse) => void, opts: FastifyServerOptions) => {
    const server = createServer((raw, res) => this.serve(raw, res, () => fastify(raw, res)));
    // What Fastify sets on a server it creates itself (it has filled in its defaults by now).
    server.keepAliveTimeout = opts.keepAliveTimeout!;
    server.requestTimeout = opts.requestTimeout!;
    server.setTimeout(opts.connectionTimeout!);
    if (opts.maxRequestsPerSocket! > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket!;
    return server;
  };

  private answer(raw: IncomingMessage, res: ServerResponse, next: () => void, hit: RepeatAnswer | undefined): void {
    if (!hit || this.parts.charge(raw, this.clientIp(raw), hit.cost) > 0) {
      next();
      return;
    }
    const id = raw.headers['x-request-id'];
    const headers: Record<string, string | number> = {
      'x-request-id': typeof id === 'string' && id !== '' ? id : requestId(),
      vary: 'Origin',
      'content-type': 'application/json; charset=utf-8',
      'content-length': hit.body.length,
    };
    this.corsHeaders(raw.headers.origin, headers);
    this.answered++;
    res.writeHead(200, headers);
    res.end(hit.body);
  }

  /** @fastify/cors as app.ts's store surface sets it up (cors.ts): the listed origins, with credentials. */
  private corsHeaders(origin: string | undefined, headers: Record<string, string | number>): void {
    const origins = this.parts.config.cors.store;
    if (!origins.length) return;
    if (origins.includes('*')) headers['access-control-allow-origin'] = '*';
    else if (origin !== undefined && origins.includes(origin)) headers['access-control-allow-origin'] = origin;
    headers['access-control-allow-credentials'] = 'true';
  }

  /**
   * Everything the answer depends on besides the data's version: the sales channels, the amount
   * units, the locale, the exact URL. Undefined for a request that must go the whole way.
   */
  private rawKey(raw: IncomingMessage, scope: StoreScope): string | undefined {
    const h = raw.headers;
    if (raw.method !== 'GET' || h.authorization !== undefined || h.cookie !== undefined) return undefined;
    if (h['transfer-encoding'] !== undefined || (h['content-length'] ?? '0') !== '0') return undefined;
    if (!scope.salesChannelIds.length) return undefined;
    const asked = h[AMOUNT_UNITS_HEADER];
    const units = asked === 'minor' || asked === 'major' ? asked : this.parts.config.amountUnits;
    // Newlines cannot occur in a header value, a channel id or a URL, so no two requests share a key.
    return `${units}\n${h['x-medusa-locale'] ?? ''}\n${scope.salesChannelIds.join(',')}\n${raw.url}`;
  }
}
