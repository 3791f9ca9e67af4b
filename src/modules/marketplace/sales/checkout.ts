import { ulid } from 'ulid';
import { inTx, type Ctx } from '../../../platform/context.ts';
import { AppError, appError, errors } from '../../../platform/http/errors.ts';
import { pageOf } from '../../../platform/http/pagination.ts';
import { newId } from '../../../platform/ids.ts';
import { euros } from '../catalog/item-json.ts';
import * as catalog from '../catalog/queries.ts';
import { insertCallbackOnce } from '../licenses/callback-queries.ts';
import { newLicenseKey } from '../licenses/license-key.ts';
import { LICENSE_TIER } from '../licenses/licenses.ts';
import * as lq from '../licenses/queries.ts';
import { recordSale } from '../payouts/ledger.ts';
import type { PaymentProviderId } from './tables.ts';
import type { PaymentProvider } from './payment-provider.ts';
import * as q from './queries.ts';
import { licenceEnd, startSubscription } from './subscriptions.ts';

export const CHECKOUT_TTL_MS = 30 * 60_000;
const CALLBACK_PATH = '/admin/marketplace/license-issued';

export interface CheckoutInput {
  marketplace_id: string;
  version: string;
  customer_email: string;
  instance_id: string;
  callback_url?: string;
}

/** The shop's base URL, without a trailing slash (the callback path is appended). */
function callbackBase(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw errors.invalid('marketplace_callback_url_invalid');
  }
  return url.toString().replace(/\/+$/, '');
}

/**
 * Opens a checkout for a paid item version: the price is fixed now, the provider opens its
 * hosted page. The session id is a fresh (not monotonic) ULID: it is all a shop needs to read
 * the license key, so one session id must not reveal the next.
 */
export async function createCheckout(ctx: Ctx, provider: PaymentProvider, input: CheckoutInput) {
  const callbackUrl = callbackBase(input.callback_url);
  const [item] = await catalog.findItemsByMarketplaceIds(ctx.db, [input.marketplace_id], true);
  if (!item) throw errors.notFound('marketplace_item_not_found', { marketplace_id: input.marketplace_id });
  const version = await catalog.findVersion(ctx.db, item.id, input.version, true);
  if (!version)
    throw errors.notFound('marketplace_version_not_found', {
      version: input.version,
      marketplace_id: input.marketplace_id,
    });
  if (item.price_cents <= 0) throw errors.invalid('marketplace_item_free', { marketplace_id: input.marketplace_id });

  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + CHECKOUT_TTL_MS);
  const row = await q.insertCheckout(ctx.db, {
    id: `mcs_${ulid()}`,
    marketplace_id: item.marketplace_id,
    version: version.version,
    customer_email: input.customer_email,
    instance_id: input.instance_id,
    callback_url: callbackUrl,
    provider: provider.id,
    status: 'open',
    amount_cents: item.price_cents,
    currency: 'eur',
    billing: item.billing,
    expires_at: expiresAt,
    created_at: now,
    updated_at: now,
  });
  // The row exists before the provider's session, so a payment reported for it always finds it.
  let opened: { providerSessionId: string; url: string };
  try {
    opened = await provider.createSession({
      checkoutId: row.id,
      marketplaceId: item.marketplace_id,
      version: version.version,
      itemName: item.name,
      amountCents: item.price_cents,
      currency: 'eur',
      billing: item.billing,
      customerEmail: input.customer_email,
      instanceId: input.instance_id,
      expiresAt,
    });
  } catch (err) {
    ctx.log.error({ err, checkoutId: row.id, provider: provider.id }, 'payment provider could not open a checkout');
    await q.updateCheckout(ctx.db, row.id, { status: 'expired', updated_at: ctx.clock.now() });
    throw appError('marketplace_provider_failed', { action: 'open a checkout' });
  }
  await q.updateCheckout(ctx.db, row.id, {
    provider_session_id: opened.providerSessionId,
    url: opened.url,
    updated_at: ctx.clock.now(),
  });
  return { id: row.id, url: opened.url, expires_at: expiresAt };
}

/** An open session past its expiry reads as expired (nothing rewrites it). */
export function effectiveStatus(row: q.CheckoutRow, now: Date): q.CheckoutRow['status'] {
  return row.status === 'open' && row.expires_at.getTime() <= now.getTime() ? 'expired' : row.status;
}

const notFound = (id: string) => errors.notFound('marketplace_checkout_not_found', { id });

export async function findCheckoutOr404(ctx: Ctx, id: string): Promise<q.CheckoutRow> {
  const row = await q.findCheckout(ctx.db, id);
  if (!row) throw notFound(id);
  return row;
}

/** GET /admin/marketplace/checkout-sessions: every purchase attempt, for the vendor (no license keys here). */
export async function listCheckouts(ctx: Ctx, query: { limit?: number; offset?: number }) {
  const page = pageOf(query);
  const [rows, count] = await Promise.all([q.listCheckoutRows(ctx.db, page), q.countCheckouts(ctx.db)]);
  const now = ctx.clock.now();
  const checkout_sessions = rows.map((r) => ({
    id: r.id,
    status: effectiveStatus(r, now),
    marketplace_id: r.marketplace_id,
    version: r.version,
    customer_email: r.customer_email,
    provider: r.provider,
    price_eur: euros(r.amount_cents),
    currency: r.currency,
    license_id: r.license_id,
    expires_at: r.expires_at,
    paid_at: r.paid_at,
    created_at: r.created_at,
  }));
  return { checkout_sessions, count, ...page };
}

/** GET /store/marketplace/checkout/session/{id}: the pull path for a shop a callback cannot reach. */
export async function getCheckout(ctx: Ctx, id: string) {
  const row = await findCheckoutOr404(ctx, id);
  const license = row.license_id ? await lq.findLicenseById(ctx.db, row.license_id) : undefined;
  return {
    id: row.id,
    status: effectiveStatus(row, ctx.clock.now()),
    marketplace_id: row.marketplace_id,
    version: row.version,
    price_eur: euros(row.amount_cents),
    currency: row.currency,
    url: row.url,
    expires_at: row.expires_at,
    paid_at: row.paid_at,
    license_key: license?.key ?? null,
  };
}

export interface Completion {
  provider: PaymentProviderId;
  /** Stripe: the Checkout Session the event is about; it must be the one we opened. */
  providerSessionId?: string;
  /** Stripe: the subscription a recurring checkout opened. */
  subscriptionId?: string | null;
  /** Stripe: the payment intent of a one-time payment (what a refund refunds). */
  paymentIntent?: string | null;
}

/**
 * Marks the session paid, issues its license and queues the license-issued callback, in one
 * transaction. Idempotent: the row lock serialises concurrent reports of the same payment, a
 * paid session returns its license unchanged, and the unique checkout_session_id of licenses
 * and callbacks holds even if that were bypassed. A provider's payment is honoured after our
 * 30 minutes (the money was taken); the test provider's pay button is not.
 */
export async function completeCheckout(
  ctx: Ctx,
  id: string,
  how: Completion,
): Promise<{ session: q.CheckoutRow; license: lq.LicenseRow }> {
  return inTx(ctx, async (tctx) => {
    const row = await q.lockCheckout(tctx.tx, id);
    if (!row || row.provider !== how.provider) throw notFound(id);
    if (how.providerSessionId !== undefined && row.provider_session_id !== how.providerSessionId) throw notFound(id);
    if (row.status === 'paid') return { session: row, license: (await lq.findLicenseById(tctx.tx, row.license_id!))! };
    const now = tctx.clock.now();
    if (how.provider === 'test' && effectiveStatus(row, now) === 'expired')
      throw errors.notAllowed('marketplace_checkout_expired', { id });

    const license = await lq.insertLicenseOnce(tctx.tx, {
      id: newId('mlic'),
      key: newLicenseKey(),
      marketplace_id: row.marketplace_id,
      instance_id: row.instance_id,
      tier: LICENSE_TIER,
      purchased_by: row.customer_email,
      expires_at: licenceEnd(now, row.billing),
      checkout_session_id: row.id,
      created_at: now,
      updated_at: now,
    });
    if (how.subscriptionId && row.billing !== 'one_time')
      await startSubscription(tctx, { license, checkout: row, provider: how.provider, id: how.subscriptionId, now });
    await recordSale(tctx, {
      sourceId: row.id,
      marketplaceId: row.marketplace_id,
      licenseId: license.id,
      provider: how.provider,
      paymentRef: how.paymentIntent ?? null,
      amountCents: row.amount_cents,
      currency: row.currency,
    });
    const session = (await q.updateCheckout(tctx.tx, id, {
      status: 'paid',
      paid_at: now,
      license_id: license.id,
      updated_at: now,
    }))!;
    if (row.callback_url) {
      const body = JSON.stringify({
        marketplace_id: row.marketplace_id,
        version: row.version,
        license_key: license.key,
        purchased_by: row.customer_email,
      });
      await insertCallbackOnce(tctx.tx, {
        id: newId('mcb'),
        checkout_session_id: row.id,
        url: `${row.callback_url}${CALLBACK_PATH}`,
        body,
        status: 'pending',
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      });
    }
    return { session, license };
  });
}

/**
 * A verified Stripe payment. A session that is not ours (another integration on the same Stripe
 * account) is acknowledged and logged: Stripe would otherwise retry it for days to no effect.
 */
export async function completeStripePayment(
  ctx: Ctx,
  paid: { checkoutId: string; providerSessionId: string; subscriptionId: string | null; paymentIntent: string | null },
): Promise<void> {
  try {
    await completeCheckout(ctx, paid.checkoutId, {
      provider: 'stripe',
      providerSessionId: paid.providerSessionId,
      subscriptionId: paid.subscriptionId,
      paymentIntent: paid.paymentIntent,
    });
  } catch (err) {
    if (!(err instanceof AppError && err.type === 'not_found')) throw err;
    ctx.log.warn(
      { checkoutId: paid.checkoutId, stripeSession: paid.providerSessionId },
      'Stripe reported a payment for no checkout of ours; ignored',
    );
  }
}
