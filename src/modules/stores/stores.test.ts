import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk, sdkFailure } from '../../../test/medusa-sdk.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { memberWithRole } from '../team/team.testing.ts';

/** The store's settings and the currencies through Medusa's JS SDK (`sdk.admin.store.*`, `sdk.admin.currency.*`). */
let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  ({ dashboard: sdk } = await medusaSdks(t));
});
afterAll(() => t.close());

describe('stores', () => {
  it('one store, made on the first read: EUR by default and the default sales channel', async () => {
    const { stores, count } = await sdk.admin.store.list();
    expect(count).toBe(1);
    const [store] = stores;
    expect(store.id).toMatch(/^store_/);
    expect(store.supported_currencies).toMatchObject([
      {
        currency_code: 'eur',
        is_default: true,
        currency: { code: 'eur', name: 'Euro', symbol: '€', decimal_digits: 2 },
      },
    ]);
    expect(store.default_sales_channel_id).toMatch(/^sc_/);
    expect((await sdk.admin.store.retrieve(store.id)).store).toEqual(store);
    expect((await sdkFailure(sdk.admin.store.retrieve('store_nope'))).status).toBe(404);
  });

  it('updates the name, currencies with one default, and the default region; refuses what does not add up', async () => {
    const [{ id }] = (await sdk.admin.store.list()).stores;
    const region = await makeRegion(t);
    const { store } = await sdk.admin.store.update(id, {
      name: 'Ada’s Shop',
      supported_currencies: [
        { currency_code: 'eur' },
        { currency_code: 'USD', is_default: true, is_tax_inclusive: true },
      ],
      default_region_id: region.id,
      default_location_id: 'sloc_placeholder',
    });
    expect(store).toMatchObject({
      name: 'Ada’s Shop',
      default_region_id: region.id,
      default_location_id: 'sloc_placeholder',
    });
    expect(
      store.supported_currencies.map((c) => [
        c.currency_code,
        c.is_default,
        (c as { is_tax_inclusive?: boolean }).is_tax_inclusive,
      ]),
    ).toEqual([
      ['eur', false, false],
      ['usd', true, true],
    ]);

    const refused = async (body: object) => (await sdkFailure(sdk.admin.store.update(id, body as never))).status;
    expect(await refused({ supported_currencies: [] })).toBe(400);
    expect(await refused({ supported_currencies: [{ currency_code: 'xyz' }] })).toBe(400);
    expect(
      await refused({
        supported_currencies: [
          { currency_code: 'eur', is_default: true },
          { currency_code: 'usd', is_default: true },
        ],
      }),
    ).toBe(400);
    expect(await refused({ default_region_id: 'reg_missing' })).toBe(400);
    expect(await refused({ default_sales_channel_id: 'sc_missing' })).toBe(400);
    expect(await refused({ color: 'red' })).toBe(400);
    expect((await sdk.admin.store.retrieve(id)).store.name).toBe('Ada’s Shop'); // nothing of the refused writes
  });

  it('keeps each currency’s price preference in step with its is_tax_inclusive, as Medusa does', async () => {
    const [{ id }] = (await sdk.admin.store.list()).stores;
    const prefOf = async (code: string) =>
      (await sdk.admin.pricePreference.list({ attribute: 'currency_code', value: code } as never)).price_preferences;
    const inclusion = async () =>
      Object.fromEntries(
        (await sdk.admin.store.retrieve(id)).store.supported_currencies.map((c) => [
          c.currency_code,
          (c as { is_tax_inclusive?: boolean }).is_tax_inclusive,
        ]),
      );

    // Setting it writes the preference (made when missing), the one prices read.
    await sdk.admin.store.update(id, {
      supported_currencies: [
        { currency_code: 'eur', is_default: true, is_tax_inclusive: true },
        { currency_code: 'gbp' },
      ],
    });
    expect((await prefOf('eur')).map((p) => p.is_tax_inclusive)).toEqual([true]);
    expect((await prefOf('gbp')).map((p) => p.is_tax_inclusive)).toEqual([false]); // made, not inclusive
    expect(await inclusion()).toEqual({ eur: true, gbp: false });

    // Left out, it keeps what the preference says; given, it changes it; one row per currency throughout.
    await sdk.admin.store.update(id, {
      supported_currencies: [
        { currency_code: 'eur', is_default: true },
        { currency_code: 'gbp', is_tax_inclusive: true },
      ],
    });
    expect((await prefOf('eur')).map((p) => p.is_tax_inclusive)).toEqual([true]);
    expect((await prefOf('gbp')).map((p) => p.is_tax_inclusive)).toEqual([true]);

    // A change through /admin/price-preferences shows on the store: one truth, the preference.
    const [eurPref] = await prefOf('eur');
    await sdk.admin.pricePreference.update(eurPref.id, { is_tax_inclusive: false });
    expect(await inclusion()).toEqual({ eur: false, gbp: true });

    // A refused store write leaves the preferences as they were.
    const refused = await t.admin('POST', `/admin/stores/${id}`, {
      supported_currencies: [{ currency_code: 'eur', is_tax_inclusive: true }, { currency_code: 'xyz' }],
    });
    expect(refused.statusCode).toBe(400);
    expect((await prefOf('eur')).map((p) => p.is_tax_inclusive)).toEqual([false]);

    // Dropping a currency keeps its preference (Medusa does not delete it); adding it back finds it.
    await sdk.admin.store.update(id, { supported_currencies: [{ currency_code: 'eur', is_default: true }] });
    expect((await prefOf('gbp')).map((p) => p.is_tax_inclusive)).toEqual([true]);
    await sdk.admin.store.update(id, {
      supported_currencies: [{ currency_code: 'eur', is_default: true }, { currency_code: 'gbp' }],
    });
    expect(await inclusion()).toEqual({ eur: false, gbp: true });
  });

  it('settings:write is needed to change it: a viewer reads, and gets 403 on update', async () => {
    const [{ id }] = (await sdk.admin.store.list()).stores;
    const viewer = await memberWithRole(t, 'viewer');
    expect((await t.admin('GET', `/admin/stores/${id}`, undefined, { token: viewer.token })).statusCode).toBe(200);
    const res = await t.admin('POST', `/admin/stores/${id}`, { name: 'Mine' }, { token: viewer.token });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      type: 'forbidden',
      code: 'permission_missing',
      message: 'Your role lacks the permission settings:write',
    });
  });
});

describe('currencies', () => {
  it('lists ISO currencies, filters by code and by a search, retrieves one', async () => {
    const all = await sdk.admin.currency.list();
    expect(all.count).toBeGreaterThan(100);
    expect(all.limit).toBe(200);
    const picked = await sdk.admin.currency.list({ code: ['usd', 'jpy'] } as never);
    expect(picked.currencies.map((c) => [c.code, c.decimal_digits])).toEqual([
      ['jpy', 0],
      ['usd', 2],
    ]);
    expect((await sdk.admin.currency.list({ q: 'krone' } as never)).currencies.map((c) => c.code)).toContain('dkk');
    expect((await sdk.admin.currency.retrieve('eur')).currency).toEqual({
      code: 'eur',
      name: 'Euro',
      symbol: '€',
      symbol_native: '€',
      decimal_digits: 2,
      rounding: 0,
    });
    expect((await sdkFailure(sdk.admin.currency.retrieve('zzz'))).status).toBe(404);
  });
});
