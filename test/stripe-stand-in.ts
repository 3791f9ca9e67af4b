import { randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { deferred } from './processes.ts';
import { Billing } from './stripe-billing.ts';
import { PaymentIntents, StripeApiError } from './stripe-payment-intents.ts';

/**
 * A local stand-in for the parts of Stripe's API the shop and the marketplace call (tests never
 * reach the internet), form-encoded as the stripe client sends them: `POST /v1/checkout/sessions`
 * (the marketplace, `mode=payment` or `mode=subscription`; `complete()` pays one as a customer
 * would); subscriptions, invoices and Connect transfers (stripe-billing.ts); Payment Intents (`POST /v1/payment_intents`, `GET …/{id}`, `POST …/{id}/confirm`
 * as stripe.js would, `…/capture`, `…/cancel`) and `POST /v1/refunds` (the stripe-payments
 * plugin). Idempotency keys are honoured as Stripe does (a repeated key replays the first answer).
 * `signedEvent`/`signed` build webhook events signed like Stripe signs them.
 */
export interface StripeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The decoded form, keys as sent (`line_items[0][price_data][currency]`). */
  form: Record<string, string>;
}

export interface StandInSession {
  id: string;
  object: 'checkout.session';
  url: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  amount_total: number;
  currency: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  /** Set once paid: the payment (`mode=payment`), or the subscription and its first invoice. */
  payment_intent: string | null;
  subscription: string | null;
  invoice: string | null;
}

/** A request held at the stand-in: it arrived, waits for `release()`, then is answered. */
export interface HeldRequest {
  arrived: Promise<void>;
  release(): void;
  answered: Promise<void>;
}

export interface StripeStandIn {
  /** `http://127.0.0.1:<port>`: STRIPE_API_BASE for the app. */
  url: string;
  requests: StripeRequest[];
  sessions: Map<string, StandInSession>;
  /** When set, the next session create answers this Stripe error (status 400, so the client does not retry). */
  failNext: string | null;
  /** Payment intents, charges and the events they queued. */
  payments: PaymentIntents;
  /** Subscriptions, invoices, transfers and the events they queue. */
  billing: Billing;
  /** Pays an open Checkout Session as its customer would; answers the session to put in checkout.session.completed. */
  complete(sessionId: string, now: number): StandInSession;
  /**
   * The next `times` requests whose path matches are carried out (and their answer kept for their
   * idempotency key) but the connection is dropped before the answer: the caller never learns.
   */
  dropReplies(path: RegExp, times: number): void;
  /** When set, the next API request is answered only after this many ms (a slow Stripe), then cleared. */
  delayNext: number | null;
  /** Holds the next request whose path matches until the test releases it (a race, played in order). */
  hold(path: RegExp): HeldRequest;
  /** An event of any object (a payment intent, a charge), signed for `secret` at `timestamp`. */
  signed(opts: { type: string; object: unknown; secret: string; timestamp: number }): {
    payload: string;
    signature: string;
  };
  /** A webhook event about a session, with its Stripe-Signature header for `secret` at `timestamp` (unix seconds). */
  signedEvent(opts: { type: string; session: Partial<StandInSession>; secret: string; timestamp: number }): {
    payload: string;
    signature: string;
  };
  close(): Promise<void>;
}

type Held = ReturnType<typeof deferred>;

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const holds: { path: RegExp; arrived: Held; gate: Held; answered: Held }[] = [];
  const payments = new PaymentIntents();
  const recurring = new Map<string, { interval: 'month' | 'year'; metadata: Record<string, string> }>();
  const drops: { path: RegExp; times: number }[] = [];
  const standIn: StripeStandIn = {
    url: '',
    requests: [],
    sessions: new Map(),
    failNext: null,
    payments,
    billing: new Billing(payments),
    complete(sessionId, now) {
      const s = standIn.sessions.get(sessionId);
      if (s?.status !== 'open') throw new Error(`no open session ${sessionId}`);
      const sub = recurring.get(sessionId);
      if (sub) {
        const made = standIn.billing.subscribe({ amount: s.amount_total, currency: s.currency, now, ...sub });
        s.subscription = made.subscription.id;
        s.invoice = made.invoice.id;
      } else {
        s.payment_intent = payments.succeeded(s.amount_total, s.currency, { ...s.metadata }).id;
      }
      s.status = 'complete';
      s.payment_status = 'paid';
      return structuredClone(s);
    },
    dropReplies(path, times) {
      drops.push({ path, times });
    },
    delayNext: null,
    hold(path) {
      const held = { path, arrived: deferred(), gate: deferred(), answered: deferred() };
      holds.push(held);
      return { arrived: held.arrived.promise, release: held.gate.resolve, answered: held.answered.promise };
    },
    signedEvent: ({ type, session, secret, timestamp }) => standIn.signed({ type, object: session, secret, timestamp }),
    signed({ type, object, secret, timestamp }) {
      const event = {
        id: `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        api_version: '2025-01-01',
        created: timestamp,
        type,
        data: { object },
      };
      const payload = JSON.stringify(event);
      return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  /** First answers by idempotency key, replayed for a repeated key as Stripe does. */
  const replies = new Map<string, { status: number; body: unknown }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const path = req.url ?? '';
      standIn.requests.push({ method: req.method ?? '', path, headers: req.headers, form });
      if (standIn.delayNext) {
        const ms = standIn.delayNext;
        standIn.delayNext = null;
        await new Promise((resolve) => setTimeout(resolve, ms));
      }
      const at = holds.findIndex((h) => h.path.test(path));
      const held = at < 0 ? undefined : holds.splice(at, 1)[0];
      if (held) {
        held.arrived.resolve();
        await held.gate.promise;
      }
      const key = req.headers['idempotency-key'];
      const reply = (status: number, body: unknown) => {
        if (typeof key === 'string' && req.method === 'POST') replies.set(key, { status, body });
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        held?.answered.resolve();
      };
      const drop = drops.find((d) => d.times > 0 && d.path.test(path));
      if (drop) drop.times--;
      // A dropped request is carried out and its answer kept for its key, but the caller never hears it.
      const answer = drop
        ? (status: number, body: unknown) => {
            if (typeof key === 'string' && req.method === 'POST') replies.set(key, { status, body });
            res.destroy();
            held?.answered.resolve();
          }
        : reply;
      const replayed = typeof key === 'string' ? replies.get(key) : undefined;
      if (replayed && req.method === 'POST') return answer(replayed.status, replayed.body);
      return route(answer, req.method ?? '', path, form);
    });
  });

  /** Answers one request, through `reply` (which may hang up instead: dropReplies). */
  function route(
    reply: (status: number, body: unknown) => void,
    method: string,
    path: string,
    form: Record<string, string>,
  ): unknown {
    const intents = /^\/v1\/(payment_intents|refunds)(?:\/([^/?]+))?(?:\/(confirm|capture|cancel))?(?:\?.*)?$/.exec(
      path,
    );
    try {
      const billed = standIn.billing.api(method, path, form);
      if (billed !== undefined) return reply(200, billed);
    } catch (err) {
      if (!(err instanceof StripeApiError)) throw err;
      return reply(err.status, { error: { type: 'invalid_request_error', code: err.code, message: err.message } });
    }
    if (intents) {
      try {
        return reply(200, paymentsApi(standIn.payments, method, intents[1], intents[2], intents[3], form));
      } catch (err) {
        if (!(err instanceof StripeApiError)) throw err;
        return reply(err.status, { error: { type: 'invalid_request_error', code: err.code, message: err.message } });
      }
    }
    if (method !== 'POST' || path !== '/v1/checkout/sessions')
      return reply(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` },
      });
    if (standIn.failNext) {
      const message = standIn.failNext;
      standIn.failNext = null;
      return reply(400, { error: { type: 'invalid_request_error', message } });
    }
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m) metadata[m[1]] = v;
    }
    const session: StandInSession = {
      id,
      object: 'checkout.session',
      url: `https://checkout.stripe.test/c/pay/${id}`,
      client_reference_id: form.client_reference_id ?? null,
      customer_email: form.customer_email ?? null,
      metadata,
      amount_total:
        Number(form['line_items[0][price_data][unit_amount]'] ?? 0) * Number(form['line_items[0][quantity]'] ?? 1),
      currency: form['line_items[0][price_data][currency]'] ?? '',
      mode: form.mode ?? '',
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: null,
      subscription: null,
      invoice: null,
    };
    standIn.sessions.set(id, session);
    const interval = form['line_items[0][price_data][recurring][interval]'];
    if (interval === 'month' || interval === 'year') {
      const metadata: Record<string, string> = {};
      for (const [k, v] of Object.entries(form)) {
        const m = /^subscription_data\[metadata\]\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]] = v;
      }
      recurring.set(id, { interval, metadata });
    }
    reply(200, session);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}

function paymentsApi(
  p: PaymentIntents,
  method: string,
  resource: string,
  id: string | undefined,
  action: string | undefined,
  form: Record<string, string>,
): unknown {
  if (resource === 'refunds' && method === 'POST' && !id) return p.refund(form);
  if (resource === 'payment_intents' && method === 'POST' && !id) return p.create(form);
  if (resource === 'payment_intents' && id && method === 'GET' && !action) return p.retrieve(id);
  if (resource === 'payment_intents' && id && method === 'POST' && action === 'confirm')
    return p.confirm(id, form.payment_method ?? '');
  if (resource === 'payment_intents' && id && method === 'POST' && action === 'capture') return p.capture(id, form);
  if (resource === 'payment_intents' && id && method === 'POST' && action === 'cancel') return p.cancel(id);
  throw new StripeApiError(404, 'resource_missing', `Unrecognized request URL (${method}: /v1/${resource})`);
}
