import { randomBytes } from 'node:crypto';

/**
 * The Payment Intents part of the Stripe stand-in, with Stripe's rules as documented: manual
 * capture holds the amount after confirmation (`requires_capture`), one capture per intent (a
 * partial one releases the rest and the intent `succeeded`), refunds up to what was captured,
 * cancel only before capture. Each change queues the event Stripe would send.
 */

export interface StandInIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  capture_method: 'manual' | 'automatic';
  client_secret: string;
  status:
    | 'requires_payment_method'
    | 'requires_confirmation'
    | 'requires_action'
    | 'requires_capture'
    | 'processing'
    | 'succeeded'
    | 'canceled';
  metadata: Record<string, string>;
  latest_charge: string | null;
  last_payment_error: { code: string; message: string } | null;
  receipt_email: string | null;
}

export interface StandInCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  payment_intent: string;
  refunded: boolean;
  metadata: Record<string, string>;
}

/** An event Stripe would send now (the test posts it to the shop, signed). */
export interface QueuedEvent {
  type: string;
  object: StandInIntent | StandInCharge;
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const copy = <T>(x: T): T => structuredClone(x);

export class PaymentIntents {
  readonly intents = new Map<string, StandInIntent>();
  readonly charges = new Map<string, StandInCharge>();
  /** Events in the order Stripe would send them; tests take them with `takeEvents()`. */
  events: QueuedEvent[] = [];

  private get(id: string): StandInIntent {
    const pi = this.intents.get(id);
    if (!pi) throw new StripeApiError(404, 'resource_missing', `No such payment_intent: '${id}'`);
    return pi;
  }

  private unexpected(pi: StandInIntent, action: string): never {
    throw new StripeApiError(
      400,
      'payment_intent_unexpected_state',
      `This PaymentIntent could not be ${action} because it has a status of ${pi.status}.`,
    );
  }

  create(form: Record<string, string>): StandInIntent {
    const amount = Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1 || !form.currency)
      throw new StripeApiError(400, 'parameter_invalid_integer', 'Invalid amount or currency');
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m) metadata[m[1]] = v;
    }
    const id = rid('pi');
    const pi: StandInIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency: form.currency,
      capture_method: form.capture_method === 'manual' ? 'manual' : 'automatic',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      status: 'requires_payment_method',
      metadata,
      latest_charge: null,
      last_payment_error: null,
      receipt_email: form.receipt_email ?? null,
    };
    this.intents.set(id, pi);
    return copy(pi);
  }

  retrieve(id: string): StandInIntent {
    return copy(this.get(id));
  }

  /** What stripe.js does in the shopper's browser with a test card (`pm_card_visa`, `pm_card_chargeDeclined`). */
  confirm(id: string, paymentMethod: string): StandInIntent {
    const pi = this.get(id);
    if (pi.status !== 'requires_payment_method' && pi.status !== 'requires_confirmation')
      this.unexpected(pi, 'confirmed');
    if (paymentMethod === 'pm_card_chargeDeclined') {
      pi.status = 'requires_payment_method';
      pi.last_payment_error = { code: 'card_declined', message: 'Your card was declined.' };
      this.events.push({ type: 'payment_intent.payment_failed', object: copy(pi) });
      return copy(pi);
    }
    const charge: StandInCharge = {
      id: rid('ch'),
      object: 'charge',
      amount: pi.amount,
      amount_captured: 0,
      amount_refunded: 0,
      currency: pi.currency,
      payment_intent: pi.id,
      refunded: false,
      metadata: {},
    };
    this.charges.set(charge.id, charge);
    pi.latest_charge = charge.id;
    pi.last_payment_error = null;
    if (pi.capture_method === 'manual') {
      pi.status = 'requires_capture';
      pi.amount_capturable = pi.amount;
      this.events.push({ type: 'payment_intent.amount_capturable_updated', object: copy(pi) });
    } else {
      this.settle(pi, charge, pi.amount);
    }
    return copy(pi);
  }

  capture(id: string, form: Record<string, string>): StandInIntent {
    const pi = this.get(id);
    if (pi.status !== 'requires_capture') this.unexpected(pi, 'captured');
    const amount = form.amount_to_capture ? Number(form.amount_to_capture) : pi.amount_capturable;
    if (!Number.isInteger(amount) || amount < 1 || amount > pi.amount_capturable)
      throw new StripeApiError(400, 'amount_too_large', 'The amount to capture exceeds the amount capturable.');
    this.settle(pi, this.charges.get(pi.latest_charge!)!, amount);
    return copy(pi);
  }

  private settle(pi: StandInIntent, charge: StandInCharge, amount: number): void {
    pi.amount_received = amount;
    pi.amount_capturable = 0; // Stripe releases whatever a partial capture left
    pi.status = 'succeeded';
    charge.amount_captured = amount;
    this.events.push({ type: 'payment_intent.succeeded', object: copy(pi) });
  }

  cancel(id: string): StandInIntent {
    const pi = this.get(id);
    if (pi.status === 'succeeded' || pi.status === 'canceled') this.unexpected(pi, 'canceled');
    pi.status = 'canceled';
    pi.amount_capturable = 0;
    this.events.push({ type: 'payment_intent.canceled', object: copy(pi) });
    return copy(pi);
  }

  /** A payment the customer made on a hosted page (Checkout, an invoice): succeeded, its charge captured. */
  succeeded(amount: number, currency: string, metadata: Record<string, string>): StandInIntent {
    const id = rid('pi');
    const charge: StandInCharge = {
      id: rid('ch'),
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      currency,
      payment_intent: id,
      refunded: false,
      metadata,
    };
    this.charges.set(charge.id, charge);
    const pi: StandInIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: amount,
      currency,
      capture_method: 'automatic',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      status: 'succeeded',
      metadata,
      latest_charge: charge.id,
      last_payment_error: null,
      receipt_email: null,
    };
    this.intents.set(id, pi);
    return copy(pi);
  }

  refund(form: Record<string, string>): Record<string, unknown> {
    const pi = this.get(form.payment_intent ?? '');
    const charge = pi.latest_charge ? this.charges.get(pi.latest_charge) : undefined;
    if (!charge || charge.amount_captured === 0)
      throw new StripeApiError(400, 'charge_not_captured', 'This PaymentIntent has no captured charge to refund.');
    const left = charge.amount_captured - charge.amount_refunded;
    const amount = form.amount ? Number(form.amount) : left;
    if (left === 0)
      throw new StripeApiError(400, 'charge_already_refunded', `Charge ${charge.id} has already been refunded.`);
    if (!Number.isInteger(amount) || amount < 1 || amount > left)
      throw new StripeApiError(
        400,
        'amount_too_large',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
      );
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount_captured;
    this.events.push({ type: 'charge.refunded', object: copy(charge) });
    return {
      id: rid('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      currency: charge.currency,
      payment_intent: pi.id,
      status: 'succeeded',
    };
  }

  takeEvents(): QueuedEvent[] {
    return this.events.splice(0);
  }
}
