import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type TestApp, VIEWER, closeAll } from '../../../test/app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.ts';
import { bearer, PASSWORD, signUpCustomer, uniqueEmail } from '../customers/customers.testing.ts';
import { packExample } from '../marketplace/marketplace.testing.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { adminOk, placeOrder } from '../orders/orders.testing.ts';
import {
  installAndWait,
  type TestMarketplace,
  startMarketplaceAndShop,
  PLUGIN_SHOP_SETUP_MS,
} from '../plugins/plugins.testing.ts';
import { Medusa } from '../../../test/medusa-sdk.ts';

let t: TestApp;
let m: TestMarketplace;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ m, t } = await startMarketplaceAndShop({ STOREFRONT_URL: 'https://shop.example' }));
  await m.publish(await packExample('smtp-email'));
  const plugin = await installAndWait(t, '@acme/smtp-email');
  expect(plugin.status, plugin.error).toBe('installed');
  const res = await t.admin('POST', `/admin/plugins/${plugin.id}/configure`, {
    config: { host: '127.0.0.1', port: smtp.port, from: 'Emporium Shop <shop@example.com>' },
  });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.plugins.settled();
  await makeRegion(t);
}, PLUGIN_SHOP_SETUP_MS);
afterAll(() => closeAll(t, m, smtp));

/** Lets the events commit into deliveries, sends what is due, returns the mails that arrived meanwhile. */
async function sendAll() {
  const before = smtp.received.length;
  await t.workers.dispatcher.drain();
  await t.workers.notifications.drain();
  return smtp.received.slice(before);
}

const deliveries = async (query: string) => (await t.admin('GET', `/admin/notification-deliveries?${query}`)).json();

describe('the smtp-email plugin sends the shop’s emails to a real SMTP server', () => {
  it('lists itself as the email provider', async () => {
    const res = await t.admin('GET', '/admin/notification-providers');
    expect(res.json()).toEqual({
      notification_providers: [{ id: 'smtp', name: 'SMTP', channels: ['email'], plugin: 'smtp-email' }],
      channels_without_provider: [],
    });
  });

  it('sends the order confirmation: envelope, subject, text and HTML bodies, headers', async () => {
    const email = uniqueEmail('buyer');
    const { order } = await placeOrder(t, { email, lines: [2] });
    const mails = await sendAll();
    expect(mails).toHaveLength(1);
    const [{ envelope, mail }] = mails;
    expect(envelope).toEqual({ from: 'shop@example.com', to: [email] });
    expect(mail.from?.value).toEqual([{ name: 'Emporium Shop', address: 'shop@example.com' }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : null).toBe(email);
    expect(mail.subject).toBe(`Your order #${order.display_id} is confirmed`);
    expect(mail.text).toContain(`thank you for your order #${order.display_id}.`);
    expect(mail.text).toMatch(/- 2 × Shirt [0-9a-f]{8}: €30\.00/);
    expect(mail.text).toContain('Total: €30.00');
    expect(mail.html).toContain('<strong>€30.00</strong>');
    expect(mail.headers.get('x-emporium-template')).toBe('order.placed');

    const {
      notification_deliveries: [d],
      count,
    } = await deliveries(`resource_id=${order.id}`);
    expect(count).toBe(1);
    expect(d).toMatchObject({
      channel: 'email',
      to: email,
      template: 'order.placed',
      status: 'sent',
      attempts: 1,
      provider_id: 'smtp',
      error: null,
      resource_type: 'order',
      resource_id: order.id,
    });
    expect(mail.messageId).toBe(`<${d.id}@emporium.invalid>`);
    expect(d.provider_message_id).toBe(`<${d.id}@emporium.invalid>`);
    expect(mail.headers.get('x-emporium-delivery-id')).toBe(d.id);
    // The same events dispatched again queue nothing new.
    expect(await sendAll()).toEqual([]);
    // Privacy: neither the order nor the shopper reached the marketplace.
    expect(JSON.stringify(m.requests)).not.toContain(email);
    expect(JSON.stringify(m.requests)).not.toContain(order.id);
  });

  it('sends the shipping notice with tracking, and the refund notice', async () => {
    const { order } = await placeOrder(t, { lines: [1] });
    await sendAll();
    const full = (await t.admin('GET', `/admin/orders/${order.id}`)).json().order;
    const fulfilled = await adminOk(t, `/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: full.items[0].id, quantity: 1 }],
    });
    const fid = fulfilled.order.fulfillments[0].id;
    await adminOk(t, `/admin/orders/${order.id}/fulfillments/${fid}/shipments`, {
      labels: [
        { tracking_number: 'JJD0099', tracking_url: 'https://track.example/JJD0099', label_url: 'https://l.example/1' },
        // Any text is a valid tracking_url (Medusa's admin sends "#"); only web links become links.
        { tracking_number: 'JJD0100', tracking_url: 'javascript:alert(1)', label_url: '#' },
      ],
    });
    await adminOk(t, `/admin/orders/${order.id}/capture`);
    await adminOk(t, `/admin/orders/${order.id}/refunds`, { amount: 500 });
    const mails = await sendAll();
    // Sent side by side: the arrival order is not the queue order.
    const bySubject = new Map(mails.map((x) => [x.mail.subject, x.mail]));
    expect([...bySubject.keys()].sort()).toEqual([
      `We refunded €5.00 for order #${order.display_id}`,
      `Your order #${order.display_id} is on its way`,
    ]);
    const shipped = bySubject.get(`Your order #${order.display_id} is on its way`)!;
    expect(shipped.text).toContain('Tracking: JJD0099 https://track.example/JJD0099');
    expect(shipped.html).toContain('<a href="https://track.example/JJD0099">JJD0099</a>');
    expect(shipped.html).toContain('<p>Tracking: JJD0100</p>');
    expect(`${shipped.html}${shipped.text}`).not.toContain('javascript:');
  });

  it('a shopper resets a forgotten password through the emailed token', async () => {
    const { email } = await signUpCustomer(t, { first_name: 'Grace' });
    const welcome = await sendAll();
    expect(welcome.map((x) => x.mail.subject)).toEqual(['Welcome, Grace']);

    const asked = await t.inject({
      method: 'POST',
      url: '/auth/customer/emailpass/reset-password',
      payload: { identifier: email },
    });
    expect(asked.statusCode).toBe(201);
    const [reset] = await sendAll();
    expect(reset.envelope.to).toEqual([email]);
    expect(reset.mail.subject).toBe('Reset your password');
    const link = /https:\/\/shop\.example\/reset-password\?token=([A-Za-z0-9_-]+)&email=([^\s"]+)/.exec(
      reset.mail.text!,
    );
    expect(link).not.toBeNull();
    expect(decodeURIComponent(link![2])).toBe(email);
    const token = link![1];

    // The history shows the message without the link.
    const {
      notification_deliveries: [d],
    } = await deliveries(`template=auth.password_reset&to=${encodeURIComponent(email)}`);
    expect(d.data).toEqual({ email, actor_type: 'customer' });
    expect((await t.admin('GET', `/admin/notification-deliveries/${d.id}`)).body).not.toContain(token);

    const update = (tok: string, password: string) =>
      t.inject({
        method: 'POST',
        url: '/auth/customer/emailpass/update',
        headers: bearer(tok),
        payload: { password },
      });
    const done = await update(token, 'a-brand-new-password');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ success: true });
    const login = (password: string) =>
      t.inject({ method: 'POST', url: '/auth/customer/emailpass', payload: { email, password } });
    expect((await login('a-brand-new-password')).statusCode).toBe(200);
    expect((await login(PASSWORD)).statusCode).toBe(401);
    // Once only.
    const again = await update(token, 'yet-another-password');
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({
      type: 'unauthorized',
      code: 'reset_token_invalid',
      message: 'Invalid or expired token',
    });
  });

  it('the Medusa JS SDK’s resetPassword and updateProvider work as they do against Medusa', async () => {
    const { email } = await signUpCustomer(t);
    await sendAll();
    const baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 }); // closed with the app
    const sdk = new Medusa({
      baseUrl,
      publishableKey: t.publishableKey,
      auth: { type: 'jwt', jwtTokenStorageMethod: 'memory' },
    });
    await sdk.auth.resetPassword('customer', 'emailpass', { identifier: email });
    const [mail] = await sendAll();
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.mail.text!)![1];
    await sdk.auth.updateProvider('customer', 'emailpass', { password: 'sdk-new-password' }, token);
    const login = await sdk.auth.login('customer', 'emailpass', { email, password: 'sdk-new-password' });
    expect(typeof login).toBe('string');
  });

  it('an unknown email gets the same 201 and no message; a token expires after 15 minutes', async () => {
    const unknown = await t.inject({
      method: 'POST',
      url: '/auth/customer/emailpass/reset-password',
      payload: { identifier: 'nobody-here@example.com' },
    });
    expect(unknown.statusCode).toBe(201);
    expect(await sendAll()).toEqual([]);

    const asked = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass/reset-password',
      payload: { identifier: ADMIN.email },
    });
    expect(asked.statusCode).toBe(201);
    const [mail] = await sendAll();
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.mail.text!)![1];
    expect(mail.mail.text).toContain('http://shop.test/app/reset-password?token=');
    t.clock.advance(15 * 60_000 + 1);
    const late = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass/update',
      headers: bearer(token),
      payload: { password: 'too-late-password' },
    });
    expect(late.statusCode).toBe(401);
    expect((await t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: ADMIN })).statusCode).toBe(200);
  });

  // The panel's viewer, not the admin: a reset signs that login out everywhere, and the admin's
  // token carries the rest of this file.
  it('a panel user resets their password the same way', async () => {
    await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass/reset-password',
      payload: { identifier: VIEWER.email },
    });
    const [mail] = await sendAll();
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.mail.text!)![1];
    const customerUse = await t.inject({
      method: 'POST',
      url: '/auth/customer/emailpass/update',
      headers: bearer(token),
      payload: { password: 'wrong-actor-password' },
    });
    expect(customerUse.statusCode).toBe(401); // an admin's token does not reset a shopper's login
    const res = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass/update',
      headers: bearer(token),
      payload: { password: 'new-admin-password-1' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const login = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass',
      payload: { email: VIEWER.email, password: 'new-admin-password-1' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('keeps a message through an SMTP outage and sends it on a later try', async () => {
    smtp.refuse = true;
    const { order } = await placeOrder(t, { lines: [1] });
    expect(await sendAll()).toEqual([]);
    let [d] = (await deliveries(`resource_id=${order.id}`)).notification_deliveries;
    expect(d).toMatchObject({ status: 'pending', attempts: 1 });
    expect(d.error).toContain('Try again later');
    smtp.refuse = false;
    expect(await sendAll()).toEqual([]); // not due yet: the next try is a minute later
    t.clock.advance(61_000);
    const mails = await sendAll();
    expect(mails.map((x) => x.mail.subject)).toEqual([`Your order #${order.display_id} is confirmed`]);
    [d] = (await deliveries(`resource_id=${order.id}`)).notification_deliveries;
    expect(d).toMatchObject({ status: 'sent', attempts: 2, error: null });
  });

  it('an invite travels by mail: the link into the panel accepts it and the new member signs in', async () => {
    const email = uniqueEmail('invitee');
    const created = await t.admin('POST', '/admin/invites', { email, role: 'support' });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().invite.token).toBeNull(); // a provider mails it: not shown to the admin
    const [mail] = await sendAll();
    expect(mail.envelope.to).toEqual([email]);
    expect(mail.mail.subject).toBe('You are invited to join the shop team');
    expect(mail.mail.text).toContain('as support');
    const token = /http:\/\/shop\.test\/app\/invite\?token=([A-Za-z0-9_-]+)/.exec(mail.mail.text!)?.[1];
    expect(token).toBeDefined();
    expect(mail.mail.html).toContain(`/app/invite?token=${token}`);

    const accepted = await t.inject({
      method: 'POST',
      url: `/admin/invites/accept?token=${token}`,
      payload: { first_name: 'Sam', password: 'invited-password-1' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().user).toMatchObject({ email, first_name: 'Sam', role: 'support' });
    const login = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass',
      payload: { email, password: 'invited-password-1' },
    });
    expect(login.statusCode).toBe(200);
  });
});
