import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { RETRY_DELAYS_MS } from '../../platform/delivery/retry-plan.ts';
import { dispatchAndSend, emitEvent, webhookFixtures } from './webhooks.testing.ts';

let t: TestApp;
const fx = webhookFixtures(() => t);
beforeAll(async () => {
  t = await startTestApp();
});
afterEach(() => fx.cleanup());
afterAll(() => t.close());

const asViewer = (url: string) => t.admin('GET', url, undefined, { token: t.viewerToken });

describe('what a viewer sees of a webhook', () => {
  it('no credentials of the URL (user info, query, path), while the admin sees it whole', async () => {
    const receiver = await fx.receiver({ status: 200, body: 'secret-answer' });
    const target = new URL(receiver.url);
    const url = `http://hookuser:hookpass@${target.host}/hooks/T0SECRETPATH?token=s3cr3t`;
    const hook = await fx.subscribe(url, ['product.*']);
    expect(hook.url).toBe(url);

    const admin = await t.admin('GET', `/admin/webhooks/${hook.id}`);
    expect(admin.json().webhook.url).toBe(url);
    for (const res of [await asViewer(`/admin/webhooks/${hook.id}`), await asViewer('/admin/webhooks')]) {
      expect(res.statusCode).toBe(200);
      for (const secret of ['hookuser', 'hookpass', 'T0SECRETPATH', 's3cr3t']) expect(res.body).not.toContain(secret);
    }
    expect((await asViewer(`/admin/webhooks/${hook.id}`)).json().webhook.url).toBe(`http://${target.host}/…`);
  });

  it('no response excerpts of the receiver', async () => {
    const receiver = await fx.receiver({ status: 200, body: 'secret-answer' });
    const hook = await fx.subscribe(receiver.url, ['product.*']);
    await emitEvent(t, 'product.created', { id: 'prod_viewer_1' });
    await dispatchAndSend(t);
    const [delivery] = (await t.admin('GET', `/admin/webhooks/${hook.id}/deliveries`)).json().deliveries;
    const path = `/admin/webhooks/${hook.id}/deliveries/${delivery.id}`;
    expect((await t.admin('GET', path)).json().delivery.attempts[0].response_body).toBe('secret-answer');
    const viewer = await asViewer(path);
    expect(viewer.statusCode).toBe(200);
    expect(viewer.json().delivery.attempts[0]).toMatchObject({ status_code: 200, response_body: null });
    expect(viewer.body).not.toContain('secret-answer');
  });

  it('no credentials of the URL in the notification of a delivery given up', async () => {
    const receiver = await fx.receiver({ status: 500, body: 'down' });
    const target = new URL(receiver.url);
    const hook = await fx.subscribe(`http://user:pass@${target.host}/T0SECRET?token=s3cr3t`, ['product.*']);
    await emitEvent(t, 'product.updated', { id: 'prod_viewer_2' });
    await dispatchAndSend(t);
    // Every retry falls due on the fake clock (about 15 h in all, within the viewer's token lifetime).
    for (const delay of RETRY_DELAYS_MS) {
      t.clock.advance(delay);
      await t.workers.webhooks.drain();
    }
    expect(receiver.requests).toHaveLength(RETRY_DELAYS_MS.length + 1);

    const viewer = await asViewer('/admin/notifications?type=webhook.failing&limit=1000');
    expect(viewer.statusCode).toBe(200);
    const mine = viewer
      .json()
      .notifications.filter((n: { data: { webhook_id: string } }) => n.data.webhook_id === hook.id);
    expect(mine).toHaveLength(1);
    expect(mine[0].message).toContain(`to http://${target.host}/… failed 6 times`);
    for (const secret of ['user', 'pass', 'T0SECRET', 's3cr3t']) expect(viewer.body).not.toContain(secret);
  });
});
