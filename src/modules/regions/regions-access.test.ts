import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { inTx } from '../../platform/context.ts';
import { findRegionByCountry, getRegion } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

// Tests share one database: each uses its own countries and a unique name token to filter lists by.
let seq = 0;
const token = () => `tok${++seq}x${Date.now().toString(36)}`;

async function createRegion(body: Record<string, unknown>) {
  const res = await t.admin('POST', '/admin/regions', body);
  expect(res.statusCode, res.body).toBe(200);
  // The admin's region also names its payment providers (regions-providers.test.ts); the store's does not.
  const { payment_providers, ...region } = res.json().region;
  expect(payment_providers).toEqual(expect.any(Array));
  return region;
}

describe('admin regions: auth', () => {
  it('no token is 401; a viewer can read but not write', async () => {
    const noToken = await t.inject({ method: 'GET', url: '/admin/regions' });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
    const noTokenWrite = await t.inject({
      method: 'POST',
      url: '/admin/regions',
      payload: { name: 'x', currency_code: 'usd' },
    });
    expect(noTokenWrite.statusCode).toBe(401);

    const region = await createRegion({ name: 'Viewer target', currency_code: 'usd' });
    const opts = { token: t.viewerToken };
    expect((await t.admin('GET', '/admin/regions', undefined, opts)).statusCode).toBe(200);
    expect((await t.admin('GET', `/admin/regions/${region.id}`, undefined, opts)).statusCode).toBe(200);
    const writes = [
      t.admin('POST', '/admin/regions', { name: 'v', currency_code: 'usd' }, opts),
      t.admin('POST', `/admin/regions/${region.id}`, { name: 'v' }, opts),
      t.admin('PATCH', `/admin/regions/${region.id}`, { name: 'v' }, opts),
      t.admin('DELETE', `/admin/regions/${region.id}`, undefined, opts),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('forbidden');
    }
    expect((await t.admin('GET', `/admin/regions/${region.id}`)).json().region.name).toBe('Viewer target');
  });
});

describe('store regions', () => {
  it('lists and gets regions with the publishable key', async () => {
    const tok = token();
    const a = await createRegion({ name: `Store A ${tok}`, currency_code: 'aud', countries: ['au'] });
    const b = await createRegion({ name: `Store B ${tok}`, currency_code: 'nzd', countries: ['nz'] });

    const list = await t.store('GET', `/store/regions?q=${tok}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ count: 2, limit: 50, offset: 0 });
    expect(list.json().regions).toEqual([a, b]);
    const byId = (await t.store('GET', `/store/regions?id=${b.id}`)).json();
    expect(byId.regions.map((r: { id: string }) => r.id)).toEqual([b.id]);
    const page = (await t.store('GET', `/store/regions?q=${tok}&limit=1&offset=1`)).json();
    expect(page).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(page.regions.map((r: { id: string }) => r.id)).toEqual([b.id]);
    expect((await t.store('GET', `/store/regions?q=${tok}&limit=0`)).json()).toEqual({
      regions: [],
      count: 2,
      limit: 0,
      offset: 0,
    });
    expect((await t.store('GET', `/store/regions?q=${tok}&offset=99`)).json()).toMatchObject({ regions: [], count: 2 });
    expect((await t.store('GET', `/store/regions?limit=2000`)).json().limit).toBe(1000);

    const got = await t.store('GET', `/store/regions/${a.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().region).toEqual(a);
  });

  it('404s an unknown region with the store message', async () => {
    const res = await t.store('GET', '/store/regions/reg_unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'store_region_not_found',
      message: 'Region with id: reg_unknown was not found',
    });
  });

  it('requires a valid publishable key', async () => {
    const none = await t.store('GET', '/store/regions', undefined, { key: null });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({
      type: 'not_allowed',
      code: 'publishable_key_missing',
      message:
        'Publishable API key required in the request header: x-publishable-api-key. You can manage your keys in settings in the dashboard.',
    });
    const noneGet = await t.store('GET', '/store/regions/reg_x', undefined, { key: null });
    expect(noneGet.statusCode).toBe(400);
    const bad = await t.store('GET', '/store/regions', undefined, { key: 'pk_bogus' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().type).toBe('unauthorized');
  });
});

describe('service functions for other modules', () => {
  it('getRegion and findRegionByCountry, also inside a transaction', async () => {
    const region = await createRegion({ name: 'Nordics', currency_code: 'dkk', countries: ['dk', 'fi'] });
    expect((await getRegion(t.ctx, region.id))?.countries.map((c) => c.iso_2)).toEqual(['dk', 'fi']);
    expect(await getRegion(t.ctx, 'reg_missing')).toBeNull();
    expect((await findRegionByCountry(t.ctx, 'FI'))?.id).toBe(region.id);
    expect(await findRegionByCountry(t.ctx, 'zw')).toBeNull();
    const inside = await inTx(t.ctx, async (tctx) => [
      await getRegion(tctx, region.id),
      await findRegionByCountry(tctx, 'dk'),
    ]);
    expect(inside.map((r) => r?.id)).toEqual([region.id, region.id]);
  });
});

describe('regions in the API document', () => {
  it('lists the admin and store routes', async () => {
    const paths = Object.keys((await t.inject({ method: 'GET', url: '/openapi.json' })).json().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/admin/regions', '/admin/regions/{id}', '/store/regions', '/store/regions/{id}']),
    );
  });
});
