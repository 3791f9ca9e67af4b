import { randomBytes } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the parts of Stripe's API the marketplace calls (tests never reach the
 * internet): `POST /v1/checkout/sessions` (form-encoded, as the stripe client sends it) answers
 * a Checkout Session; `signedEvent` builds a webhook event signed like Stripe signs them.
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
}

export interface StripeStandIn {
  /** `http://127.0.0.1:<port>`: STRIPE_API_BASE for the app. */
  url: string;
  requests: StripeRequest[];
  sessions: Map<string, StandInSession>;
  /** When set, the next session create answers this Stripe error (status 400, so the client does not retry). */
  failNext: string | null;
  /** A webhook event about a session, with its Stripe-Signature header for `secret` at `timestamp` (unix seconds). */
  signedEvent(opts: { type: string; session: Partial<StandInSession>; secret: string; timestamp: number }): { payload: string; signature: string };
  close(): Promise<void>;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const standIn: StripeStandIn = {
    url: '',
    requests: [],
    sessions: new Map(),
    failNext: null,
    signedEvent({ type, session, secret, timestamp }) {
      const event = { id: `evt_${randomBytes(12).toString('hex')}`, object: 'event', api_version: '2025-01-01', created: timestamp, type, data: { object: session } };
      const payload = JSON.stringify(event);
      return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const path = req.url ?? '';
      standIn.requests.push({ method: req.method ?? '', path, headers: req.headers, form });
      const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || path !== '/v1/checkout/sessions') return reply(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } });
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
        amount_total: Number(form['line_items[0][price_data][unit_amount]'] ?? 0) * Number(form['line_items[0][quantity]'] ?? 1),
        currency: form['line_items[0][price_data][currency]'] ?? '',
        mode: form.mode ?? '',
        status: 'open',
        payment_status: 'unpaid',
      };
      standIn.sessions.set(id, session);
      reply(200, session);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
