import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { placeOrder } from '../orders/orders.testing.ts';

/** A shop with no notification provider installed: what is (not) sent, and what the admin sees. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

describe('without a notification provider', () => {
  it('sends nothing, records the message as not_sent, and tells the admin once', async () => {
    const { order } = await placeOrder(t);
    await placeOrder(t);
    await t.workers.dispatcher.drain();
    await t.workers.notifications.drain();
    const res = await t.admin('GET', `/admin/notification-deliveries?resource_id=${order.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ count: 1, limit: 50, offset: 0 });
    expect(res.json().notification_deliveries[0]).toMatchObject({
      template: 'order.placed',
      status: 'not_sent',
      attempts: 0,
      provider_id: null,
      error: 'No notification provider for email is installed',
    });
    expect(res.json().notification_deliveries[0].data).toMatchObject({ order_id: order.id, total: '€45.00' });
    const notes = (await t.admin('GET', '/admin/notifications?type=notification.no_provider')).json();
    expect(notes.count).toBe(1);
    expect(notes.notifications[0].message).toContain('No notification provider for email is installed');
    expect((await t.admin('GET', '/admin/notification-providers')).json()).toEqual({
      notification_providers: [],
      channels_without_provider: ['email'],
    });
  });

  it('filters the history by status and template; 404s an unknown delivery; validates the query', async () => {
    const notSent = (
      await t.admin('GET', '/admin/notification-deliveries?status=not_sent&template=order.placed')
    ).json();
    expect(notSent.count).toBeGreaterThanOrEqual(2);
    expect((await t.admin('GET', '/admin/notification-deliveries?status=sent')).json().count).toBe(0);
    const missing = await t.admin('GET', '/admin/notification-deliveries/ntfd_missing');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      type: 'not_found',
      code: 'notification_delivery_not_found',
      message: 'Notification delivery with id: ntfd_missing was not found',
    });
    expect((await t.admin('GET', '/admin/notification-deliveries?limit=-1')).statusCode).toBe(400);
    expect(
      (await t.admin('GET', '/admin/notification-deliveries', undefined, { token: t.viewerToken })).statusCode,
    ).toBe(200);
  });
});

describe('templates', () => {
  it('lists the core templates with their sample data', async () => {
    const res = await t.admin('GET', '/admin/notification-templates');
    expect(res.json().notification_templates.map((x: { name: string }) => x.name)).toEqual([
      'order.placed',
      'order.shipped',
      'order.refunded',
      'order.transfer_requested',
      'customer.created',
      'auth.password_reset',
      'marketplace.vendor_verify',
      'marketplace.vendor_invite',
      'team.invite',
    ]);
  });

  it('previews a template with its sample data, overridden by the data sent, escaping HTML', async () => {
    const res = await t.admin('POST', '/admin/notification-templates/order.placed/preview', {
      data: { display_id: 7, first_name: '<b>Ada</b>' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { preview } = res.json();
    expect(preview.subject).toBe('Your order #7 is confirmed');
    expect(preview.text).toContain('Hello <b>Ada</b>,');
    expect(preview.text).toContain('- 2 × Linen shirt: €50.00');
    expect(preview.html).toContain('<p>Hello &lt;b&gt;Ada&lt;/b&gt;,</p>');
    const unknown = await t.admin('POST', '/admin/notification-templates/order.lost/preview', {});
    expect(unknown.statusCode).toBe(404);
    const bad = await t.admin('POST', '/admin/notification-templates/order.placed/preview', { data: 'x' });
    expect(bad.statusCode).toBe(400);
  });
});
