import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
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
});
