import { randomBytes } from 'node:crypto';
import { StripeApiError, type PaymentIntents } from './stripe-payment-intents.ts';

/**
 * The Billing and Connect parts of the Stripe stand-in, shaped as Stripe's current API shapes
 * them: a subscription's period lives on its item (`items.data[0].current_period_end`), an
 * invoice names its subscription under `parent.subscription_details`, its payment is an
 * `invoice_payment`, a transfer pays a connected account (`destination: acct_…`) and a reversal
 * takes some of it back. Tests drive time: `renew()` bills the next period (paid or failed),
 * `end()` ends a subscription as Stripe does after its retries. Each change queues its event.
 */

export interface StandInSubscription {
  id: string;
  object: 'subscription';
  status: 'active' | 'past_due' | 'canceled';
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  customer: string;
  metadata: Record<string, string>;
  latest_invoice: string | null;
  items: {
    object: 'list';
    data: {
      id: string;
      object: 'subscription_item';
      current_period_start: number;
      current_period_end: number;
      price: { unit_amount: number; currency: string; recurring: { interval: 'month' | 'year' } };
    }[];
  };
}

export interface StandInInvoice {
  id: string;
  object: 'invoice';
  status: 'paid' | 'open';
  billing_reason: 'subscription_create' | 'subscription_cycle';
  amount_due: number;
  amount_paid: number;
  currency: string;
  customer: string;
  parent: {
    type: 'subscription_details';
    subscription_details: { subscription: string; metadata: Record<string, string> };
  };
  lines: {
    object: 'list';
    data: {
      id: string;
      object: 'line_item';
      amount: number;
      currency: string;
      period: { start: number; end: number };
    }[];
  };
}

export interface StandInInvoicePayment {
  id: string;
  object: 'invoice_payment';
  invoice: string;
  status: 'paid';
  amount_paid: number;
  payment: { type: 'payment_intent'; payment_intent: string };
}

export interface StandInTransfer {
  id: string;
  object: 'transfer';
  amount: number;
  amount_reversed: number;
  currency: string;
  destination: string;
  transfer_group: string | null;
  metadata: Record<string, string>;
  reversed: boolean;
}

export interface StandInReversal {
  id: string;
  object: 'transfer_reversal';
  amount: number;
  currency: string;
  transfer: string;
}

export interface BillingEvent {
  type: string;
  object: StandInSubscription | StandInInvoice;
}

const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const copy = <T>(x: T): T => structuredClone(x);

/** `unix` plus one month or year, on the same day of the month (clamped to the month's last day). */
export function nextPeriodEnd(unix: number, interval: 'month' | 'year'): number {
  const d = new Date(unix * 1000);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + (interval === 'month' ? 1 : 12));
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return Math.floor(d.getTime() / 1000);
}

const metadataOf = (form: Record<string, string>, prefix: string) => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) {
    const m = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[(.+)\\]$`).exec(k);
    if (m) out[m[1]] = v;
  }
  return out;
};

export class Billing {
  readonly subscriptions = new Map<string, StandInSubscription>();
  readonly invoices = new Map<string, StandInInvoice>();
  readonly invoicePayments = new Map<string, StandInInvoicePayment>();
  readonly transfers = new Map<string, StandInTransfer>();
  readonly reversals = new Map<string, StandInReversal>();
  events: BillingEvent[] = [];

  constructor(private readonly payments: PaymentIntents) {}

  /** A paying customer completed a subscription checkout: the subscription and its first, paid invoice. */
  subscribe(opts: {
    amount: number;
    currency: string;
    interval: 'month' | 'year';
    metadata: Record<string, string>;
    now: number;
  }): { subscription: StandInSubscription; invoice: StandInInvoice } {
    const sub: StandInSubscription = {
      id: rid('sub'),
      object: 'subscription',
      status: 'active',
      cancel_at_period_end: false,
      canceled_at: null,
      customer: rid('cus'),
      metadata: opts.metadata,
      latest_invoice: null,
      items: {
        object: 'list',
        data: [
          {
            id: rid('si'),
            object: 'subscription_item',
            current_period_start: opts.now,
            current_period_end: nextPeriodEnd(opts.now, opts.interval),
            price: { unit_amount: opts.amount, currency: opts.currency, recurring: { interval: opts.interval } },
          },
        ],
      },
    };
    this.subscriptions.set(sub.id, sub);
    const invoice = this.bill(sub, 'subscription_create', true);
    return { subscription: copy(sub), invoice };
  }

  /** The next period's invoice: paid (the period moves on) or failed (the subscription is `past_due`). */
  renew(subscriptionId: string, opts: { fail?: boolean } = {}): StandInInvoice {
    const sub = this.get(subscriptionId);
    if (sub.status === 'canceled') throw new Error(`${sub.id} is canceled`);
    const item = sub.items.data[0];
    const start = item.current_period_end;
    const end = nextPeriodEnd(start, item.price.recurring.interval);
    if (opts.fail) {
      sub.status = 'past_due';
      return this.bill(sub, 'subscription_cycle', false, { start, end });
    }
    item.current_period_start = start;
    item.current_period_end = end;
    sub.status = 'active';
    return this.bill(sub, 'subscription_cycle', true, { start, end });
  }

  /** Stripe gives up after its retries (or the period ran out after a cancellation): the subscription ends. */
  end(subscriptionId: string, at: number): StandInSubscription {
    const sub = this.get(subscriptionId);
    sub.status = 'canceled';
    sub.canceled_at ??= at;
    this.events.push({ type: 'customer.subscription.deleted', object: copy(sub) });
    return copy(sub);
  }

  private bill(
    sub: StandInSubscription,
    reason: StandInInvoice['billing_reason'],
    paid: boolean,
    period?: { start: number; end: number },
  ): StandInInvoice {
    const item = sub.items.data[0];
    const { unit_amount: amount, currency } = item.price;
    const invoice: StandInInvoice = {
      id: rid('in'),
      object: 'invoice',
      status: paid ? 'paid' : 'open',
      billing_reason: reason,
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      currency,
      customer: sub.customer,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: copy(sub.metadata) },
      },
      lines: {
        object: 'list',
        data: [
          {
            id: rid('il'),
            object: 'line_item',
            amount,
            currency,
            period: period ?? { start: item.current_period_start, end: item.current_period_end },
          },
        ],
      },
    };
    this.invoices.set(invoice.id, invoice);
    sub.latest_invoice = invoice.id;
    if (paid) {
      const pi = this.payments.succeeded(amount, currency, { invoice: invoice.id });
      const payment: StandInInvoicePayment = {
        id: rid('inpay'),
        object: 'invoice_payment',
        invoice: invoice.id,
        status: 'paid',
        amount_paid: amount,
        payment: { type: 'payment_intent', payment_intent: pi.id },
      };
      this.invoicePayments.set(payment.id, payment);
    }
    this.events.push({ type: paid ? 'invoice.paid' : 'invoice.payment_failed', object: copy(invoice) });
    return copy(invoice);
  }

  private get(id: string): StandInSubscription {
    const sub = this.subscriptions.get(id);
    if (!sub) throw new StripeApiError(404, 'resource_missing', `No such subscription: '${id}'`);
    return sub;
  }

  takeEvents(): BillingEvent[] {
    return this.events.splice(0);
  }

  /** The HTTP side: `/v1/subscriptions`, `/v1/invoices`, `/v1/invoice_payments`, `/v1/transfers`. */
  api(method: string, path: string, form: Record<string, string>): unknown | undefined {
    const url = new URL(path, 'http://stand-in');
    const parts = url.pathname.split('/').filter(Boolean); // v1, resource, id?, action?
    const [, resource, id, action] = parts;
    if (resource === 'subscriptions' && id) {
      const sub = this.get(id);
      if (method === 'GET') return copy(sub);
      if (method === 'DELETE') {
        sub.status = 'canceled';
        sub.canceled_at = Math.floor(Date.now() / 1000);
        this.events.push({ type: 'customer.subscription.deleted', object: copy(sub) });
        return copy(sub);
      }
      if (method === 'POST' && !action) {
        if (sub.status === 'canceled')
          throw new StripeApiError(400, 'resource_missing', 'A canceled subscription can only update its metadata.');
        if (form.cancel_at_period_end !== undefined) {
          sub.cancel_at_period_end = form.cancel_at_period_end === 'true';
          sub.canceled_at = sub.cancel_at_period_end ? Math.floor(Date.now() / 1000) : null;
        }
        Object.assign(sub.metadata, metadataOf(form, 'metadata'));
        this.events.push({ type: 'customer.subscription.updated', object: copy(sub) });
        return copy(sub);
      }
    }
    if (resource === 'invoices' && id && method === 'GET') {
      const invoice = this.invoices.get(id);
      if (!invoice) throw new StripeApiError(404, 'resource_missing', `No such invoice: '${id}'`);
      return copy(invoice);
    }
    if (resource === 'invoice_payments' && !id && method === 'GET') {
      const invoice = url.searchParams.get('invoice');
      const data = [...this.invoicePayments.values()].filter((p) => !invoice || p.invoice === invoice);
      return { object: 'list', data: copy(data), has_more: false, url: '/v1/invoice_payments' };
    }
    if (resource === 'transfers' && !id && method === 'POST') return this.transfer(form);
    if (resource === 'transfers' && id && method === 'GET' && !action) {
      const t = this.transfers.get(id);
      if (!t) throw new StripeApiError(404, 'resource_missing', `No such transfer: '${id}'`);
      return copy(t);
    }
    if (resource === 'transfers' && id && action === 'reversals' && method === 'POST') return this.reverse(id, form);
    return undefined;
  }

  private transfer(form: Record<string, string>): StandInTransfer {
    const amount = Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1 || !form.currency)
      throw new StripeApiError(400, 'parameter_invalid_integer', 'Invalid amount or currency');
    if (!/^acct_/.test(form.destination ?? ''))
      throw new StripeApiError(400, 'resource_missing', `No such destination: '${form.destination ?? ''}'`);
    const t: StandInTransfer = {
      id: rid('tr'),
      object: 'transfer',
      amount,
      amount_reversed: 0,
      currency: form.currency,
      destination: form.destination,
      transfer_group: form.transfer_group ?? null,
      metadata: metadataOf(form, 'metadata'),
      reversed: false,
    };
    this.transfers.set(t.id, t);
    return copy(t);
  }

  private reverse(transferId: string, form: Record<string, string>): StandInReversal {
    const t = this.transfers.get(transferId);
    if (!t) throw new StripeApiError(404, 'resource_missing', `No such transfer: '${transferId}'`);
    const left = t.amount - t.amount_reversed;
    const amount = form.amount ? Number(form.amount) : left;
    if (!Number.isInteger(amount) || amount < 1 || amount > left)
      throw new StripeApiError(400, 'amount_too_large', `Reversal amount (${amount}) exceeds what is left (${left})`);
    t.amount_reversed += amount;
    t.reversed = t.amount_reversed === t.amount;
    const r: StandInReversal = {
      id: rid('trr'),
      object: 'transfer_reversal',
      amount,
      currency: t.currency,
      transfer: t.id,
    };
    this.reversals.set(r.id, r);
    return copy(r);
  }
}
