import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { inTx } from '../../platform/context.ts';
import { createNotification, type NotificationInput } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

// Tests share one database: each creates notifications of its own type and filters the list by it.
let seq = 0;
const uniqueType = () => `test.type${++seq}x${Date.now().toString(36)}`;

interface Listed {
  id: string;
  title: string;
  read_at: string | null;
}

async function create(type: string, title: string, extra: Partial<NotificationInput> = {}) {
  await createNotification(t.ctx, { type, title, message: `${title} happened`, ...extra });
}

async function list(query: string) {
  const res = await t.admin('GET', `/admin/notifications?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { notifications: Listed[]; count: number; limit: number; offset: number };
}

const titles = (body: { notifications: Listed[] }) => body.notifications.map((n) => n.title);

describe('createNotification and reading', () => {
  it('creates a notification that lists and retrieves in the contract shape', async () => {
    const type = uniqueType();
    await create(type, 'Update available', { data: { plugin: '@acme/hello', versions: ['1.0.0', '1.1.0'] } });
    const body = await list(`type=${type}`);
    expect(body).toMatchObject({ count: 1, limit: 50, offset: 0 });
    const [n] = body.notifications;
    expect(n).toEqual({
      id: expect.stringMatching(/^noti_[0-9A-Z]{26}$/),
      type,
      title: 'Update available',
      message: 'Update available happened',
      data: { plugin: '@acme/hello', versions: ['1.0.0', '1.1.0'] },
      read_at: null,
      created_at: t.clock.now().toISOString(),
    });
    const got = await t.admin('GET', `/admin/notifications/${n.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ notification: n });
  });

  it('defaults data to an empty object', async () => {
    const type = uniqueType();
    await create(type, 'No data');
    expect((await list(`type=${type}`)).notifications[0]).toMatchObject({ data: {} });
  });

  it('404s an unknown notification', async () => {
    const res = await t.admin('GET', '/admin/notifications/noti_missing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'notification_not_found',
      message: 'Notification with id: noti_missing not found',
    });
  });

  it('with the same dedupeKey creates only the first; without one, every call creates', async () => {
    const type = uniqueType();
    const key = `plugin-update:@acme/hello@2.0.0:${type}`;
    await create(type, 'First', { dedupeKey: key });
    t.clock.advance(1000);
    await create(type, 'Second', { dedupeKey: key });
    expect(titles(await list(`type=${type}`))).toEqual(['First']);
    await create(type, 'Other key', { dedupeKey: `${key}:next` });
    await create(type, 'Unkeyed');
    await create(type, 'Unkeyed');
    expect((await list(`type=${type}`)).count).toBe(4);
  });

  it('inside a transaction that rolls back leaves nothing; one that commits keeps it', async () => {
    const type = uniqueType();
    await expect(
      inTx(t.ctx, async (tctx) => {
        await createNotification(tctx, { type, title: 'Doomed', message: 'rolled back' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await list(`type=${type}`)).count).toBe(0);
    await inTx(t.ctx, (tctx) => createNotification(tctx, { type, title: 'Kept', message: 'committed' }));
    expect(titles(await list(`type=${type}`))).toEqual(['Kept']);
  });
});

describe('GET /admin/notifications: order, filters, pagination', () => {
  it('lists unread first, then newest first; read=false and read=true filter', async () => {
    const type = uniqueType();
    for (const title of ['Oldest', 'Middle', 'Newest']) {
      await create(type, title);
      t.clock.advance(60_000);
    }
    expect(titles(await list(`type=${type}`))).toEqual(['Newest', 'Middle', 'Oldest']);

    const middle = (await list(`type=${type}`)).notifications[1];
    expect((await t.admin('POST', `/admin/notifications/${middle.id}/read`)).statusCode).toBe(200);
    await create(type, 'Latest read');
    const latest = (await list(`type=${type}`)).notifications[0];
    await t.admin('POST', `/admin/notifications/${latest.id}/read`);

    expect(titles(await list(`type=${type}`))).toEqual(['Newest', 'Oldest', 'Latest read', 'Middle']);
    expect(titles(await list(`type=${type}&read=false`))).toEqual(['Newest', 'Oldest']);
    expect(titles(await list(`type=${type}&read=true`))).toEqual(['Latest read', 'Middle']);
    expect((await list(`type=${type}&read=false`)).count).toBe(2);
  });

  it('orders notifications created at the same instant newest first by id', async () => {
    const type = uniqueType();
    for (const title of ['a', 'b', 'c']) await create(type, title);
    expect(titles(await list(`type=${type}`))).toEqual(['c', 'b', 'a']);
  });

  it('filters by several types (repeated or comma-separated)', async () => {
    const [a, b, c] = [uniqueType(), uniqueType(), uniqueType()];
    await create(a, 'A');
    await create(b, 'B');
    await create(c, 'C');
    expect(titles(await list(`type=${a}&type=${c}`)).sort()).toEqual(['A', 'C']);
    expect(titles(await list(`type[]=${b}`))).toEqual(['B']);
    expect(titles(await list(`type=${a},${b}`)).sort()).toEqual(['A', 'B']);
  });

  it('pagination edges: limit 0, offset past the end, clamp above 1000, slices in order', async () => {
    const type = uniqueType();
    for (const title of ['p0', 'p1', 'p2']) {
      await create(type, title);
      t.clock.advance(1000);
    }
    expect(await list(`type=${type}&limit=0`)).toEqual({ notifications: [], count: 3, limit: 0, offset: 0 });
    expect(await list(`type=${type}&offset=10`)).toEqual({ notifications: [], count: 3, limit: 50, offset: 10 });
    expect(await list(`type=${type}&limit=5000`)).toMatchObject({ count: 3, limit: 1000 });
    expect(titles(await list(`type=${type}&limit=1&offset=1`))).toEqual(['p1']);
  });

  it('rejects bad query values with 400 invalid_data', async () => {
    for (const bad of ['limit=-1', 'offset=-1', 'limit=abc', 'read=maybe']) {
      const res = await t.admin('GET', `/admin/notifications?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
  });
});

describe('marking read', () => {
  it('marks read with the clock time and keeps the first read_at when repeated', async () => {
    const type = uniqueType();
    await create(type, 'Read me');
    const { id } = (await list(`type=${type}`)).notifications[0];
    const firstAt = t.clock.now().toISOString();
    const first = await t.admin('POST', `/admin/notifications/${id}/read`, {});
    expect(first.statusCode).toBe(200);
    expect(first.json().notification).toMatchObject({ id, read_at: firstAt });
    t.clock.advance(3_600_000);
    const again = await t.inject({
      method: 'POST',
      url: `/admin/notifications/${id}/read`,
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().notification.read_at).toBe(firstAt);
  });

  it('404s marking an unknown notification, 400s an unknown body field', async () => {
    const missing = await t.admin('POST', '/admin/notifications/noti_missing/read', {});
    expect(missing.statusCode).toBe(404);
    expect(missing.json().type).toBe('not_found');
    const type = uniqueType();
    await create(type, 'Body');
    const { id } = (await list(`type=${type}`)).notifications[0];
    const extra = await t.admin('POST', `/admin/notifications/${id}/read`, { read: true });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({
      type: 'invalid_data',
      message: expect.stringContaining("Unrecognized fields: 'read'"),
    });
    expect((await list(`type=${type}`)).notifications[0].read_at).toBeNull();
  });

  it('read-all marks every unread notification and reports how many', async () => {
    const type = uniqueType();
    await create(type, 'One');
    await create(type, 'Two');
    const unread = (await list('read=false')).count;
    expect(unread).toBeGreaterThanOrEqual(2);
    const res = await t.admin('POST', '/admin/notifications/read-all');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ updated: unread });
    expect((await list('read=false')).count).toBe(0);
    expect((await list(`type=${type}`)).notifications.every((n) => n.read_at === t.clock.now().toISOString())).toBe(
      true,
    );
    expect((await t.admin('POST', '/admin/notifications/read-all', {})).json()).toEqual({ updated: 0 });
  });
});

describe('access', () => {
  it('needs a token (401) and lets a viewer read but not mark read (403)', async () => {
    const type = uniqueType();
    await create(type, 'Guarded');
    const { id } = (await list(`type=${type}`)).notifications[0];
    for (const url of ['/admin/notifications', `/admin/notifications/${id}`]) {
      const none = await t.inject({ method: 'GET', url });
      expect(none.statusCode, url).toBe(401);
      expect(none.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
      expect((await t.admin('GET', url, undefined, { token: t.viewerToken })).statusCode, url).toBe(200);
    }
    expect((await t.inject({ method: 'POST', url: `/admin/notifications/${id}/read` })).statusCode).toBe(401);
    for (const url of [`/admin/notifications/${id}/read`, '/admin/notifications/read-all']) {
      const res = await t.admin('POST', url, {}, { token: t.viewerToken });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().type).toBe('forbidden');
    }
    expect((await list(`type=${type}`)).notifications[0].read_at).toBeNull();
  });
});
