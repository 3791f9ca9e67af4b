import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { findRegionByCountry } from './service.ts';

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
  return res.json().region;
}

describe('admin regions: create and read', () => {
  it('creates a region with countries in Medusa shape', async () => {
    const res = await t.admin('POST', '/admin/regions', {
      name: 'Europe',
      currency_code: 'eur',
      countries: ['DE', 'fr'],
      payment_providers: ['pp_system_default'],
      metadata: { tier: 1 },
    });
    expect(res.statusCode).toBe(200);
    const region = res.json().region;
    expect(region.id).toMatch(/^reg_/);
    expect(region).toMatchObject({
      name: 'Europe',
      currency_code: 'eur',
      automatic_taxes: true,
      is_tax_inclusive: false,
      metadata: { tier: 1 },
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    expect(region.countries).toEqual([
      { iso_2: 'de', iso_3: 'deu', num_code: '276', name: 'GERMANY', display_name: 'Germany', region_id: region.id },
      { iso_2: 'fr', iso_3: 'fra', num_code: '250', name: 'FRANCE', display_name: 'France', region_id: region.id },
    ]);
    expect(region).not.toHaveProperty('deleted_at');

    const got = await t.admin('GET', `/admin/regions/${region.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().region).toEqual(region);
  });

  it('creates without countries, with explicit tax flags and null metadata', async () => {
    const region = await createRegion({
      name: 'Nowhere',
      currency_code: 'usd',
      automatic_taxes: false,
      is_tax_inclusive: true,
    });
    expect(region).toMatchObject({ automatic_taxes: false, is_tax_inclusive: true, metadata: null, countries: [] });
  });

  it('404s an unknown region with Medusa message', async () => {
    const res = await t.admin('GET', '/admin/regions/invalid-region-id');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'region_not_found',
      message: 'Region with id: invalid-region-id not found',
    });
  });
});

describe('admin regions: list', () => {
  it('lists with countries, default limit 50, filters q, id and currency_code', async () => {
    const tok = token();
    const a = await createRegion({ name: `Alpha ${tok}`, currency_code: 'sek', countries: ['se'] });
    const b = await createRegion({ name: `Beta ${tok}`, currency_code: 'nok', countries: ['no', 'sj'] });
    const c = await createRegion({ name: `Gamma ${tok}`, currency_code: 'sek' });

    const all = (await t.admin('GET', `/admin/regions?q=${tok.toUpperCase()}`)).json();
    expect(all).toMatchObject({ count: 3, limit: 50, offset: 0 });
    expect(all.regions.map((r: { id: string }) => r.id)).toEqual([a.id, b.id, c.id]);
    expect(all.regions[1].countries.map((x: { iso_2: string }) => x.iso_2)).toEqual(['no', 'sj']);
    expect(all.regions[0].countries[0]).toMatchObject({ iso_2: 'se', region_id: a.id });

    const byCurrency = (await t.admin('GET', `/admin/regions?q=${tok}&currency_code=sek`)).json();
    expect(byCurrency.regions.map((r: { id: string }) => r.id)).toEqual([a.id, c.id]);

    const repeated = (await t.admin('GET', `/admin/regions?id=${a.id}&id=${c.id}`)).json();
    expect(repeated).toMatchObject({ count: 2 });
    const comma = (await t.admin('GET', `/admin/regions?id=${b.id},${c.id}`)).json();
    expect(comma.regions.map((r: { id: string }) => r.id)).toEqual([b.id, c.id]);
    const single = (await t.admin('GET', `/admin/regions?id=${b.id}`)).json();
    expect(single.regions.map((r: { id: string }) => r.id)).toEqual([b.id]);
  });

  it('treats % and _ in q literally', async () => {
    const tok = token();
    await createRegion({ name: `Percent ${tok}`, currency_code: 'eur' });
    const res = (await t.admin('GET', `/admin/regions?q=${tok}%25`)).json();
    expect(res.count).toBe(0);
    const underscore = (await t.admin('GET', `/admin/regions?q=${tok.slice(0, 3)}_`)).json();
    expect(underscore.count).toBe(0);
  });

  it('pagination edges: limit 0, offset past the end, clamp above 1000, slices in creation order', async () => {
    const tok = token();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createRegion({ name: `Page ${tok} ${i}`, currency_code: 'eur' })).id);

    const zero = (await t.admin('GET', `/admin/regions?q=${tok}&limit=0`)).json();
    expect(zero).toEqual({ regions: [], count: 3, limit: 0, offset: 0 });
    const past = (await t.admin('GET', `/admin/regions?q=${tok}&offset=10`)).json();
    expect(past).toEqual({ regions: [], count: 3, limit: 50, offset: 10 });
    const clamped = (await t.admin('GET', `/admin/regions?q=${tok}&limit=5000`)).json();
    expect(clamped).toMatchObject({ count: 3, limit: 1000 });
    const middle = (await t.admin('GET', `/admin/regions?q=${tok}&limit=1&offset=1`)).json();
    expect(middle.regions.map((r: { id: string }) => r.id)).toEqual([ids[1]]);

    for (const bad of ['limit=-1', 'offset=-1', 'limit=abc']) {
      const res = await t.admin('GET', `/admin/regions?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
  });
});

describe('admin regions: update', () => {
  it('updates fields via POST and PATCH, replacing countries only when given', async () => {
    const region = await createRegion({ name: 'Iberia', currency_code: 'eur', countries: ['es'], metadata: { a: 1 } });
    t.clock.advance(60_000);
    const res = await t.admin('POST', `/admin/regions/${region.id}`, { name: 'Iberia+', countries: ['PT', 'ad'] });
    expect(res.statusCode).toBe(200);
    const updated = res.json().region;
    expect(updated).toMatchObject({
      name: 'Iberia+',
      currency_code: 'eur',
      metadata: { a: 1 },
      created_at: region.created_at,
    });
    expect(updated.updated_at).toBe(t.clock.now().toISOString());
    expect(updated.countries.map((c: { iso_2: string }) => c.iso_2)).toEqual(['ad', 'pt']);

    const patched = await t.admin('PATCH', `/admin/regions/${region.id}`, {
      currency_code: 'usd',
      is_tax_inclusive: true,
      metadata: null,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().region).toMatchObject({
      name: 'Iberia+',
      currency_code: 'usd',
      is_tax_inclusive: true,
      metadata: null,
    });
    expect(patched.json().region.countries.map((c: { iso_2: string }) => c.iso_2)).toEqual(['ad', 'pt']);

    // es was released by the replacement: another region may take it.
    await createRegion({ name: 'Spain only', currency_code: 'eur', countries: ['es'] });

    const cleared = await t.admin('PATCH', `/admin/regions/${region.id}`, { countries: [] });
    expect(cleared.json().region.countries).toEqual([]);
    const got = (await t.admin('GET', `/admin/regions/${region.id}`)).json().region;
    expect(got).toMatchObject({ name: 'Iberia+', countries: [] });
  });

  it('keeping its own country in a replacement is allowed', async () => {
    const region = await createRegion({ name: 'Benelux', currency_code: 'eur', countries: ['be', 'nl'] });
    const res = await t.admin('POST', `/admin/regions/${region.id}`, { countries: ['nl', 'lu', 'be'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().region.countries.map((c: { iso_2: string }) => c.iso_2)).toEqual(['be', 'lu', 'nl']);
  });

  it('404s an unknown or deleted region', async () => {
    const res = await t.admin('POST', '/admin/regions/reg_missing', { name: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'region_not_found',
      message: 'Region with id: reg_missing not found',
    });
    const region = await createRegion({ name: 'Gone', currency_code: 'eur' });
    await t.admin('DELETE', `/admin/regions/${region.id}`);
    expect((await t.admin('PATCH', `/admin/regions/${region.id}`, { name: 'back' })).statusCode).toBe(404);
  });
});

describe('admin regions: delete', () => {
  it('soft-deletes, hides the region and frees its countries', async () => {
    const tok = token();
    const region = await createRegion({ name: `Doomed ${tok}`, currency_code: 'chf', countries: ['ch', 'li'] });
    const res = await t.admin('DELETE', `/admin/regions/${region.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: region.id, object: 'region', deleted: true });

    expect((await t.admin('GET', `/admin/regions/${region.id}`)).statusCode).toBe(404);
    expect((await t.admin('GET', `/admin/regions?q=${tok}`)).json().count).toBe(0);
    expect((await t.store('GET', `/store/regions/${region.id}`)).statusCode).toBe(404);
    expect(await findRegionByCountry(t.ctx, 'ch')).toBeNull();

    const again = await createRegion({ name: 'Swiss again', currency_code: 'chf', countries: ['ch', 'li'] });
    expect(again.countries.map((c: { iso_2: string }) => c.iso_2)).toEqual(['ch', 'li']);
  });

  it('404s deleting an unknown or already deleted region', async () => {
    expect((await t.admin('DELETE', '/admin/regions/reg_nope')).json()).toEqual({
      type: 'not_found',
      code: 'region_not_found',
      message: 'Region with id: reg_nope not found',
    });
    const region = await createRegion({ name: 'Twice', currency_code: 'eur' });
    expect((await t.admin('DELETE', `/admin/regions/${region.id}`)).statusCode).toBe(200);
    expect((await t.admin('DELETE', `/admin/regions/${region.id}`)).statusCode).toBe(404);
  });
});

describe('admin regions: country uniqueness', () => {
  it('rejects a country already in another region, on create and on update', async () => {
    const first = await createRegion({ name: 'North America', currency_code: 'usd', countries: ['us', 'ca'] });
    const res = await t.admin('POST', '/admin/regions', { name: 'USA', currency_code: 'usd', countries: ['US'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'invalid_data',
      code: 'region_countries_taken',
      message: 'Countries with codes: "us" are already assigned to a region',
    });

    const multi = await t.admin('POST', '/admin/regions', {
      name: 'X',
      currency_code: 'usd',
      countries: ['mx', 'ca', 'us'],
    });
    expect(multi.json().message).toBe('Countries with codes: "ca", "us" are already assigned to a region');
    // Nothing of the failed create was kept: mx is still free.
    await createRegion({ name: 'Mexico', currency_code: 'mxn', countries: ['mx'] });

    const other = await createRegion({ name: 'Caribbean', currency_code: 'usd', countries: ['jm'] });
    const upd = await t.admin('POST', `/admin/regions/${other.id}`, { name: 'Renamed', countries: ['cu', 'ca'] });
    expect(upd.statusCode).toBe(400);
    expect(upd.json().message).toBe('Countries with codes: "ca" are already assigned to a region');
    // The failed update rolled back as a whole: name and own countries unchanged.
    const after = (await t.admin('GET', `/admin/regions/${other.id}`)).json().region;
    expect(after.name).toBe('Caribbean');
    expect(after.countries.map((c: { iso_2: string }) => c.iso_2)).toEqual(['jm']);
    expect((await findRegionByCountry(t.ctx, 'CA'))?.id).toBe(first.id);
  });

  it('two concurrent creates for one country: exactly one wins, the other gets the same 400', async () => {
    const body = (name: string) => ({ name, currency_code: 'jpy', countries: ['jp'] });
    const results = await Promise.all([
      t.admin('POST', '/admin/regions', body('A')),
      t.admin('POST', '/admin/regions', body('B')),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const loser = results.find((r) => r.statusCode === 400)!;
    expect(loser.json()).toEqual({
      type: 'invalid_data',
      code: 'region_countries_taken',
      message: 'Countries with codes: "jp" are already assigned to a region',
    });
  });

  it('rejects the same country twice in one request, in any case', async () => {
    const res = await t.admin('POST', '/admin/regions', { name: 'Dup', currency_code: 'eur', countries: ['it', 'IT'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe('invalid_data');
    expect(res.json().message).toContain('"it"');
    expect(await findRegionByCountry(t.ctx, 'it')).toBeNull();
  });
});

describe('admin regions: validation', () => {
  const post = (body: unknown) => t.admin('POST', '/admin/regions', body as Record<string, unknown>);

  it('currency_code must be a lower-case ISO 4217 code', async () => {
    for (const currency_code of ['USD', 'xyz', 'eu', '']) {
      const res = await post({ name: 'Bad currency', currency_code });
      expect(res.statusCode, currency_code).toBe(400);
      expect(res.json().type).toBe('invalid_data');
      expect(res.json().message).toContain('currency_code');
    }
    const region = await createRegion({ name: 'Ok currency', currency_code: 'gbp' });
    const upd = await t.admin('PATCH', `/admin/regions/${region.id}`, { currency_code: 'GBP' });
    expect(upd.statusCode).toBe(400);
    expect(upd.json().message).toContain('currency_code');
  });

  it('countries must be ISO 3166-1 alpha-2 codes', async () => {
    for (const code of ['xx', 'usa', '840', 'u', '']) {
      const res = await post({ name: 'Bad country', currency_code: 'usd', countries: ['gr', code] });
      expect(res.statusCode, code).toBe(400);
      expect(res.json().type).toBe('invalid_data');
      expect(res.json().message).toContain('countries');
    }
    expect(await findRegionByCountry(t.ctx, 'gr')).toBeNull();
  });

  it('payment_providers accepts only the built-in provider', async () => {
    const res = await post({ name: 'PP', currency_code: 'usd', payment_providers: ['pp_stripe'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('pp_stripe');
  });

  it('unknown fields, wrong types and missing fields are 400 invalid_data naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: 'x', currency_code: 'usd', foo: 1 }, "Unrecognized fields: 'foo'"],
      [{ currency_code: 'usd' }, "Field 'name' is required"],
      [{ name: 'x' }, "Field 'currency_code' is required"],
      [{ name: { a: 1 }, currency_code: 'usd' }, "'name'"],
      [{ name: 'x', currency_code: 'usd', automatic_taxes: 'yes' }, "'automatic_taxes'"],
      [{ name: 'x', currency_code: 'usd', countries: { us: true } }, "'countries'"],
      [{ name: 'x', currency_code: 'usd', metadata: 'text' }, "'metadata'"],
      [{ name: '', currency_code: 'usd' }, "'name'"],
    ];
    for (const [body, fragment] of cases) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
      expect(res.json().message).toContain(fragment);
    }
    const region = await createRegion({ name: 'Strict update', currency_code: 'usd' });
    const upd = await t.admin('POST', `/admin/regions/${region.id}`, { bar: 1 });
    expect(upd.statusCode).toBe(400);
    expect(upd.json().message).toContain("Unrecognized fields: 'bar'");
    const malformed = await t.inject({
      method: 'POST',
      url: '/admin/regions',
      payload: '{"name":',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
  });
});
