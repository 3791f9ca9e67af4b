import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../../test/app.ts';
import { instanceIdFor } from '../../federation/instance-id.ts';
import {
  installAndWait,
  packPlugin,
  pluginSlug,
  type TestMarketplace,
  startMarketplaceAndShop,
} from '../../plugins/plugins.testing.ts';

let m: TestMarketplace;
let t: TestApp;
beforeAll(async () => {
  ({ m, t } = await startMarketplaceAndShop());
}, 240_000);
afterAll(() => closeAll(t, m));

const market = (method: 'GET' | 'POST', url: string, payload?: object, token = m.adminToken) =>
  m.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
const store = (method: 'GET' | 'POST', url: string, payload?: object) =>
  m.app.inject({ method, url, ...(payload ? { payload } : {}) });

async function publishOne() {
  const id = pluginSlug('rated');
  const item = (await m.publish(await packPlugin({ id }))) as unknown as { id: string; marketplace_id: string };
  return item;
}

describe('ratings, reviews and installs', () => {
  it('a shop that installed an item rates it once (editable); the feed shows average, count and active installs', async () => {
    const item = await publishOne();
    const mid = item.marketplace_id;
    const plugin = await installAndWait(t, mid);
    expect(plugin.status, plugin.error).toBe('installed');
    // Reinstalling does not count the shop twice.
    await store(
      'GET',
      `/store/marketplace/download/${mid}/1.0.0?instance_id=${await instanceIdFor(t.ctx, t.config.encryptionKey, m.url)}`,
    );

    const sent = await t.admin('POST', '/admin/marketplace/reviews', {
      marketplace_id: mid,
      rating: 4,
      body: 'Does the job',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const edited = await t.admin('POST', '/admin/marketplace/reviews', {
      marketplace_id: mid,
      rating: 2,
      body: 'Slow',
    });
    expect(edited.json().review).toMatchObject({ rating: 2, body: 'Slow' });

    // Another shop that downloaded it too: two installs, two ratings.
    await store('GET', `/store/marketplace/download/${mid}/1.0.0?instance_id=other-shop-token`);
    const other = await store('POST', '/store/marketplace/reviews', {
      marketplace_id: mid,
      instance_id: 'other-shop-token',
      rating: 5,
      body: 'Great',
    });
    expect(other.statusCode, other.body).toBe(200);

    const page = (await store('GET', `/store/marketplace/reviews?marketplace_id=${encodeURIComponent(mid)}`)).json();
    expect(page).toMatchObject({ rating_average: 3.5, rating_count: 2, active_installs: 2 });
    expect(page.reviews.map((r: { body: string }) => r.body).sort()).toEqual(['Great', 'Slow']);
    const feed = (await store('GET', `/store/marketplace/feed?search=${encodeURIComponent(mid)}`)).json().products[0];
    expect(feed).toMatchObject({ rating_average: 3.5, rating_count: 2, active_installs: 2 });
    const shopFeed = (await t.admin('GET', `/admin/marketplace/feed/${mid}`)).json().product;
    expect(shopFeed).toMatchObject({ rating_average: 3.5, rating_count: 2, active_installs: 2 });
  });

  it('refuses a shop that never installed the item and a bad rating; the vendor answers once; the operator hides abuse', async () => {
    const item = await publishOne();
    const mid = item.marketplace_id;
    const stranger = await store('POST', '/store/marketplace/reviews', {
      marketplace_id: mid,
      instance_id: 'never-installed',
      rating: 1,
    });
    expect(stranger.statusCode).toBe(403);
    await store('GET', `/store/marketplace/download/${mid}/1.0.0?instance_id=abuser`);
    expect(
      (await store('POST', '/store/marketplace/reviews', { marketplace_id: mid, instance_id: 'abuser', rating: 6 }))
        .statusCode,
    ).toBe(400);
    const abuse = await store('POST', '/store/marketplace/reviews', {
      marketplace_id: mid,
      instance_id: 'abuser',
      rating: 1,
      body: 'insults',
    });
    const reviewId = abuse.json().review.id;

    const reply = await market('POST', `/admin/marketplace/items/${item.id}/reviews/${reviewId}/reply`, {
      body: 'Sorry to hear',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(
      (await market('POST', `/admin/marketplace/items/${item.id}/reviews/${reviewId}/reply`, { body: 'again' }))
        .statusCode,
    ).toBe(409);

    const hidden = await market('POST', `/admin/marketplace/items/${item.id}/reviews/${reviewId}/hide`, {
      reason: 'abusive',
    });
    expect(hidden.json().review).toMatchObject({ hidden_reason: 'abusive', reply: 'Sorry to hear' });
    const page = (await store('GET', `/store/marketplace/reviews?marketplace_id=${encodeURIComponent(mid)}`)).json();
    expect(page).toMatchObject({ rating_average: null, rating_count: 0, reviews: [] });
    const admin = (await market('GET', `/admin/marketplace/items/${item.id}/reviews`)).json();
    expect(admin.reviews).toHaveLength(1);

    // 90 days without a download: no longer an active install (last: the clock moves past the tokens' life).
    m.clock.advance(91 * 86_400_000);
    expect(
      (await store('GET', `/store/marketplace/reviews?marketplace_id=${encodeURIComponent(mid)}`)).json()
        .active_installs,
    ).toBe(0);
  });
});
