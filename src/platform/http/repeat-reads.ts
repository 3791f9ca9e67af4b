import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Config } from '../config.ts';
import { AMOUNT_UNITS_HEADER } from '../money/hooks.ts';
import { lightRequestCost } from './store-limits.ts';
import type { StoreScope } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The store's hot reads' repeats (set up in app.ts); the products routes attach their cache to it. */
    repeatReads: RepeatReads;
  }
}

/** Where answers are kept, each for the version of the data it was read at (the products' StoreCache). */
export interface RepeatSource {
  /** The version a request arriving now is to be answered at. */
  current(): number | Promise<number>;
  /** The bytes kept for a repeat of the request `key` names, if they still hold at `version`. */
  recall(key: string, version: number): Buffer | undefined;
}

/**
 * Repeats of the store's hot reads. A storefront asks for the same catalog pages again and
 * again; once a route has answered one, its bytes are kept (by the products' StoreCache, for the
 * catalog version they were read at), and a repeat of exactly that request is answered by
 * `onRequest`, the last onRequest hook of those routes: after the request id, CORS, readiness,
 * the store's rate budget and the publishable key's check have run as for any request, and
 * before the query is parsed, validated and read again. The reply goes out through Fastify's
 * onSend and onResponse hooks like the route's own.
 *
 * Only what needs no judgement is answered so: a GET without a body, cookie or Authorization
 * (customers and sessions go the whole way), asking for a light page, for a version the data
 * still has. Everything else, a miss included, goes on to the route unchanged.
 */
export class RepeatReads {
  /** Requests answered from a kept answer since start (tests tell the two paths apart by it). */
  answered = 0;
  private source?: RepeatSource;

  constructor(private readonly config: Pick<Config, 'amountUnits'>) {}

  /** Repeats are answered from `answers` (one source: the store products' cache). */
  attach(answers: RepeatSource): void {
    this.source = answers;
  }

  /** From the app's close on, every request goes the whole way, and the route answers it while it closes. */
  close(): void {
    this.source = undefined;
  }

  /**
   * The key a request's answer may be kept under for its repeats, or undefined when such a
   * request is not answered from a kept answer. `scope` is the publishable key's, as the store guard found it.
   */
  keyOf(req: FastifyRequest, scope: StoreScope): string | undefined {
    // A heavy page waits for a heavy slot every time (store-limits.ts): none is kept.
    if (lightRequestCost(req.query) === null) return undefined;
    return this.rawKey(req, scope);
  }

  /** A route's onRequest hook: answers a repeat from its kept bytes, or lets the route read it. */
  onRequest = (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const source = this.source;
    const key = source && req.store ? this.rawKey(req, req.store) : undefined;
    if (!source || key === undefined) {
      done();
      return;
    }
    const version = source.current();
    if (typeof version === 'number') {
      this.answer(reply, source.recall(key, version), done);
      return;
    }
    // PostgreSQL: the version is read for every request arriving together (store-cache.ts).
    version.then(
      (v) => this.answer(reply, source.recall(key, v), done),
      () => done(), // the route's own read of the version fails again and answers the 503
    );
  };

  private answer(reply: FastifyReply, body: Buffer | undefined, done: HookHandlerDoneFunction): void {
    if (body === undefined) {
      done();
      return;
    }
    this.answered++;
    // A hook that replies does not call done: Fastify skips the rest of the request's lifecycle up to onSend.
    reply.type('application/json; charset=utf-8').send(body);
  }

  /**
   * Everything the answer depends on besides the data's version: the sales channels, the amount
   * units, the locale, the exact URL. Undefined for a request that must go the whole way.
   */
  private rawKey(req: FastifyRequest, scope: StoreScope): string | undefined {
    const h = req.headers;
    if (req.method !== 'GET' || h.authorization !== undefined || h.cookie !== undefined) return undefined;
    if (h['transfer-encoding'] !== undefined || (h['content-length'] ?? '0') !== '0') return undefined;
    if (!scope.salesChannelIds.length) return undefined;
    const asked = h[AMOUNT_UNITS_HEADER];
    const units = asked === 'minor' || asked === 'major' ? asked : this.config.amountUnits;
    // Newlines cannot occur in a header value, a channel id or a URL, so no two requests share a key.
    return `${units}\n${h['x-medusa-locale'] ?? ''}\n${scope.salesChannelIds.join(',')}\n${req.url}`;
  }
}
