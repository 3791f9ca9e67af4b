import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, verify } from './checkout.testing.ts';
import {
  buy,
  deliver,
  deliverBilling,
  itemOf,
  startStripeWorld,
  vendorOf,
  type StripeWorld,
} from './stripe-world.testing.ts';

let w: StripeWorld;
beforeAll(async () => {
  w = await startStripeWorld();
});
afterAll(() => w.close());

const DAY = 24 * 3_600_000;
const at = (unix: number) => new Date(unix * 1000);
const subscriptions = async () => (await admin(w.t, 'GET', '/admin/marketplace/subscriptions?limit=100')).json();
const subscriptionOf = async (licenseId: string) =>
  (await subscriptions()).subscriptions.find((s: { license_id: string }) => s.license_id === licenseId);
const licenseOf = async (key: string) =>
  (await admin(w.t, 'GET', '/admin/marketplace/licenses?limit=100'))
    .json()
    .licenses.find((l: { key: string }) => l.key === key);
const verdict = async (key: string, marketplaceId: string, instanceId: string) =>
  (await verify(w.t, { license_key: key, marketplace_id: marketplaceId, instance_id: instanceId })).json();

describe('subscriptions through Stripe', () => {
  it('a monthly item is a Stripe subscription; each paid renewal extends the licence, once per invoice', async () => {
    const v = await vendorOf(w);
    const item = await itemOf(w, v, { billing: 'monthly', price_eur: '9.90' });
    expect(item.billing).toBe('monthly');
    const feed = (await w.t.inject({ method: 'GET', url: `/store/marketplace/feed/${item.marketplace_id}` })).json();
    expect(feed.product.billing).toBe('monthly');

    const before = w.stripe.requests.length;
    const { key, session } = await buy(w, item.marketplace_id, 'inst_monthly');
    const create = w.stripe.requests.slice(before).find((r) => r.path === '/v1/checkout/sessions')!;
    expect(create.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '990',
      'line_items[0][price_data][recurring][interval]': 'month',
      'subscription_data[metadata][marketplace_id]': item.marketplace_id,
      'subscription_data[metadata][instance_id]': 'inst_monthly',
    });

    const sub = w.stripe.billing.subscriptions.get(session.subscription!)!;
    const firstEnd = sub.items.data[0].current_period_end;
    const license = await licenseOf(key);
    expect(new Date(license.expires_at).getTime()).toBe(firstEnd * 1000 + DAY);
    expect(await subscriptionOf(license.id)).toMatchObject({
      billing: 'monthly',
      provider: 'stripe',
      provider_subscription_id: sub.id,
      status: 'active',
      current_period_end: at(firstEnd).toISOString(),
      cancel_at_period_end: false,
    });

    // A month later Stripe charges the next period and reports the paid invoice.
    w.t.clock.set(at(firstEnd + 600));
    const invoice = w.stripe.billing.renew(sub.id);
    const secondEnd = invoice.lines.data[0].period.end;
    expect(secondEnd).toBeGreaterThan(firstEnd + 27 * 86_400);
    expect(await deliverBilling(w)).toEqual(['invoice.paid']);
    const renewed = await licenseOf(key);
    expect(new Date(renewed.expires_at).getTime()).toBe(secondEnd * 1000 + DAY);
    expect(renewed.renewed_at).toBe(w.t.clock.now().toISOString());
    expect((await subscriptionOf(license.id)).current_period_end).toBe(at(secondEnd).toISOString());

    // The same invoice again (Stripe retries): nothing moves, the renewal is one sale.
    await deliver(w, 'invoice.paid', invoice);
    expect((await licenseOf(key)).expires_at).toBe(renewed.expires_at);
    const sales = (await admin(w.t, 'GET', `/admin/marketplace/sales?vendor_id=${v.id}`)).json().sales;
    expect(sales.map((s: { source_id: string }) => s.source_id).sort()).toEqual(
      [invoice.id, (await licenseOf(key)).checkout_session_id].sort(),
    );
    expect(sales[0]).toMatchObject({ amount_eur: 9.9, commission_eur: 2.97, vendor_share_eur: 6.93 });

    // Still valid well past the first period's end.
    w.t.clock.set(at(firstEnd + 20 * 86_400));
    expect((await verdict(key, item.marketplace_id, 'inst_monthly')).valid).toBe(true);
  });

  it('a failed renewal leaves the licence valid until its period ends, then expired', async () => {
    const v = await vendorOf(w);
    const item = await itemOf(w, v, { billing: 'yearly', price_eur: '99' });
    const { key, session } = await buy(w, item.marketplace_id, 'inst_failing');
    const sub = w.stripe.billing.subscriptions.get(session.subscription!)!;
    const end = sub.items.data[0].current_period_end;
    expect(end - sub.items.data[0].current_period_start).toBeGreaterThanOrEqual(365 * 86_400);
    const license = await licenseOf(key);

    w.t.clock.set(at(end + 600));
    w.stripe.billing.renew(sub.id, { fail: true });
    expect(await deliverBilling(w)).toEqual(['invoice.payment_failed']);
    const pastDue = await subscriptionOf(license.id);
    expect(pastDue).toMatchObject({ status: 'past_due', last_payment_failed_at: w.t.clock.now().toISOString() });
    expect((await licenseOf(key)).expires_at).toBe(license.expires_at);
    expect(await verdict(key, item.marketplace_id, 'inst_failing')).toMatchObject({ valid: true });

    // Stripe's retries fail too; the paid period (and its day of grace) runs out.
    w.t.clock.set(new Date(new Date(license.expires_at).getTime() + 1000));
    expect(await verdict(key, item.marketplace_id, 'inst_failing')).toEqual({ valid: false, reason: 'expired' });
    w.stripe.billing.end(sub.id, Math.floor(w.t.clock.now().getTime() / 1000));
    expect(await deliverBilling(w)).toEqual(['customer.subscription.deleted']);
    expect(await subscriptionOf(license.id)).toMatchObject({ status: 'canceled', canceled_by: 'provider' });
    // No renewal sale was recorded for the failed invoice.
    const sales = (await admin(w.t, 'GET', `/admin/marketplace/sales?vendor_id=${v.id}`)).json();
    expect(sales.count).toBe(1);
  });

  it('the shop cancels with its licence key and instance; the vendor cancels its own, never another vendor’s', async () => {
    const v = await vendorOf(w);
    const other = await vendorOf(w);
    const item = await itemOf(w, v, { billing: 'monthly' });
    const mine = await buy(w, item.marketplace_id, 'inst_cancel_shop');
    const theirs = await buy(w, item.marketplace_id, 'inst_cancel_vendor');
    const shopSub = await subscriptionOf((await licenseOf(mine.key)).id);
    const vendorSub = await subscriptionOf((await licenseOf(theirs.key)).id);

    const body = { license_key: mine.key, marketplace_id: item.marketplace_id, instance_id: 'inst_cancel_shop' };
    const wrong = await w.t.inject({
      method: 'POST',
      url: '/store/marketplace/subscriptions/cancel',
      payload: { ...body, instance_id: 'inst_someone_else' },
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().code).toBe('marketplace_license_without_subscription');

    const before = w.stripe.requests.length;
    const cancel = () => w.t.inject({ method: 'POST', url: '/store/marketplace/subscriptions/cancel', payload: body });
    const first = await cancel();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().subscription).toMatchObject({ cancel_at_period_end: true, canceled_by: 'shop' });
    expect((await cancel()).json().subscription).toEqual(first.json().subscription);
    const asked = w.stripe.requests.slice(before);
    expect(asked.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v1/subscriptions/${shopSub.provider_subscription_id}`,
    ]);
    expect(asked[0].form).toEqual({ cancel_at_period_end: 'true' });
    expect(asked[0].headers['idempotency-key']).toBe(`cancel_${shopSub.id}`);
    expect(w.stripe.billing.subscriptions.get(shopSub.provider_subscription_id)!.cancel_at_period_end).toBe(true);
    await deliverBilling(w); // customer.subscription.updated: nothing changes
    expect((await subscriptionOf(shopSub.license_id)).canceled_by).toBe('shop');
    // Cancelled, yet valid for what was paid.
    expect((await verdict(mine.key, item.marketplace_id, 'inst_cancel_shop')).valid).toBe(true);

    const asVendor = (token: string, method: string, url: string) =>
      w.t.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` } });
    const foreign = await asVendor(
      other.token,
      'POST',
      `/admin/marketplace/vendor/subscriptions/${vendorSub.id}/cancel`,
    );
    expect(foreign.statusCode).toBe(404);
    expect((await asVendor(other.token, 'GET', '/admin/marketplace/vendor/subscriptions')).json().count).toBe(0);
    const listed = (await asVendor(v.token, 'GET', '/admin/marketplace/vendor/subscriptions')).json();
    expect(listed.subscriptions.map((s: { id: string }) => s.id).sort()).toEqual([shopSub.id, vendorSub.id].sort());
    const own = await asVendor(v.token, 'POST', `/admin/marketplace/vendor/subscriptions/${vendorSub.id}/cancel`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().subscription).toMatchObject({ cancel_at_period_end: true, canceled_by: v.id });
    // The operator's own route is closed to vendors.
    expect((await asVendor(v.token, 'GET', '/admin/marketplace/subscriptions')).statusCode).toBe(403);

    // An ended subscription cannot be cancelled again.
    w.stripe.billing.end(vendorSub.provider_subscription_id, Math.floor(w.t.clock.now().getTime() / 1000));
    await deliverBilling(w);
    const ended = await admin(w.t, 'POST', `/admin/marketplace/subscriptions/${vendorSub.id}/cancel`);
    expect(ended.statusCode).toBe(400);
    expect(ended.json().code).toBe('marketplace_subscription_ended');
  });

  it('a one-time item stays a single payment; billing is validated', async () => {
    const v = await vendorOf(w);
    const item = await itemOf(w, v, { price_eur: '29.90' });
    expect(item.billing).toBe('one_time');
    const before = w.stripe.requests.length;
    const { key } = await buy(w, item.marketplace_id, 'inst_once');
    expect(w.stripe.requests[before].form.mode).toBe('payment');
    const license = await licenseOf(key);
    expect(new Date(license.expires_at).getTime() - new Date(license.created_at).getTime()).toBe(365 * DAY);
    expect(await subscriptionOf(license.id)).toBeUndefined();

    const bad = await admin(w.t, 'POST', `/admin/marketplace/items/${item.id}`, { billing: 'weekly' });
    expect(bad.statusCode).toBe(400);
    const changed = await admin(w.t, 'POST', `/admin/marketplace/items/${item.id}`, { billing: 'yearly' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().item.billing).toBe('yearly');
  });
});
