import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { installAndWait, packPlugin, pluginSlug, shopEnv } from '../plugins/plugins.testing.ts';
import { ok200, pricedProduct, shippingOption } from './pricing.testing.ts';
import { uniq } from '../checkout/checkout.testing.ts';

/**
 * Tax providers of real plugins (packed, installed, run as the shop runs plugins): one computes a
 * cart's tax lines from the rates it is given, one throws, one never answers. The failing ones
 * refuse the shopper's request with a 503 that names the provider, never a cart without tax.
 */

// Each line: the shop's rate plus one point (proves the rates reach the provider); shipping 5 %.
const COMPUTING = (
  id: string,
) => `export default { register(ctx) { ctx.taxes.register({ id: '${id}', name: 'Fixture tax service',
  getTaxLines(input) {
    return {
      item_tax_lines: input.items.map((i) => ({ line_item_id: i.id, rate: (i.rates[0]?.rate ?? 0) + 1, code: 'SVC', name: 'Service tax ' + input.shipping_address.country_code })),
      shipping_tax_lines: input.shipping_methods.map((m) => ({ shipping_line_id: m.id, rate: 5, code: 'SHIP', name: 'Shipping tax' })),
    };
  } }); } };`;
const FAILING = (id: string) =>
  `export default { register(ctx) { ctx.taxes.register({ id: '${id}', getTaxLines() { throw new Error('tax service down'); } }); } };`;
const HANGING = (id: string) =>
  `export default { register(ctx) { ctx.taxes.register({ id: '${id}', getTaxLines() { return new Promise(() => {}); } }); } };`;

describe('tax providers of plugins', () => {
  let t: TestApp;
  let env: Record<string, string>;
  const ids = { computing: '', failing: '', hanging: '' };

  async function install(kind: keyof typeof ids, server: (id: string) => string) {
    const id = pluginSlug(`tax-${kind}`);
    const bytes = await packPlugin(
      { id, type: 'integration', server: 'server/index.js', permissions: { providers: ['taxes'] } },
      { 'server/index.js': server(id), 'package.json': JSON.stringify({ name: id, type: 'module' }) },
    );
    writeFileSync(path.join(env.PLUGINS_DIR, `${id}.tgz`), bytes);
    const plugin = await installAndWait(t, `@tests/${id}`);
    expect(plugin.status, plugin.error).toBe('installed');
    ids[kind] = id;
  }

  async function regionWithProvider(country: string, providerId: string) {
    const { region } = await ok200(
      await t.admin('POST', '/admin/regions', { name: `R ${uniq()}`, currency_code: 'eur', countries: [country] }),
    );
    await ok200(
      await t.admin('POST', '/admin/tax-regions', {
        country_code: country,
        provider_id: providerId,
        default_tax_rate: { rate: 19, code: 'VAT', name: 'VAT' },
      }),
    );
    return region as { id: string };
  }

  beforeAll(async () => {
    env = shopEnv(null, { PROVIDER_TIMEOUT_MS: '400' });
    t = await startTestApp({ env });
    await install('computing', COMPUTING);
    await install('failing', FAILING);
    await install('hanging', HANGING);
  }, 180_000);
  afterAll(() => t?.close());

  it('the tax region’s provider computes the cart’s tax lines, from the rates it is given', async () => {
    const region = await regionWithProvider('at', `tp_${ids.computing}`);
    const product = await pricedProduct(t, 1000);
    const ship = await shippingOption(t, region.id, 500);
    const { cart } = await ok200(
      await t.store('POST', '/store/carts', {
        region_id: region.id,
        items: [{ variant_id: product.variants[0].id, quantity: 2 }],
      }),
    );
    const c = cart as { id: string; items: { tax_lines: Record<string, unknown>[] }[]; tax_total: number };
    expect(c.items[0].tax_lines).toEqual([
      expect.objectContaining({ rate: 20, code: 'SVC', name: 'Service tax at', provider_id: `tp_${ids.computing}` }),
    ]);
    expect(c.tax_total).toBe(400);
    const withShipping = await ok200(
      await t.store('POST', `/store/carts/${c.id}/shipping-methods`, { option_id: ship.id }),
    );
    const s = withShipping.cart as { tax_total: number; shipping_tax_total: number; total: number };
    expect(s.shipping_tax_total).toBe(25);
    expect(s.tax_total).toBe(425);
    expect(s.total).toBe(2000 + 400 + 500 + 25);
  });

  it('a provider that throws or never answers refuses the request with a 503, writing nothing', async () => {
    const product = await pricedProduct(t, 1000);
    for (const [country, kind, why] of [
      ['ch', 'failing', /failed/],
      ['no', 'hanging', /did not answer|failed/],
    ] as const) {
      const region = await regionWithProvider(country, `tp_${ids[kind]}`);
      const before = (await t.admin('GET', '/admin/orders?limit=1')).json().count;
      const res = await t.store('POST', '/store/carts', {
        region_id: region.id,
        items: [{ variant_id: product.variants[0].id, quantity: 1 }],
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({
        type: 'service_unavailable',
        code: 'tax_provider_unavailable',
        message: expect.stringMatching(why),
      });
      expect(res.json().message).toContain(`tp_${ids[kind]}`);
      expect((await t.admin('GET', '/admin/orders?limit=1')).json().count).toBe(before);
    }
  });

  it('a tax region naming a provider that is not running is a 503 too, never a cart without tax', async () => {
    const region = await regionWithProvider('se', 'tp_not_installed');
    const product = await pricedProduct(t, 1000);
    const res = await t.store('POST', '/store/carts', {
      region_id: region.id,
      items: [{ variant_id: product.variants[0].id, quantity: 1 }],
    });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().message).toContain('tp_not_installed is not running');
  });

  it('lists the providers a tax region can name (Medusa’s /admin/tax-providers); a region switches provider', async () => {
    const { tax_providers, count } = (await t.admin('GET', '/admin/tax-providers?limit=50')).json();
    expect(tax_providers[0]).toEqual({ id: 'tp_system', is_enabled: true, name: 'Built-in tax rates', plugin: null });
    expect(tax_providers).toContainEqual({
      id: `tp_${ids.computing}`,
      is_enabled: true,
      name: 'Fixture tax service',
      plugin: expect.any(String),
    });
    expect(count).toBe(4); // the built-in one and the three plugins'
    const one = (await t.admin('GET', `/admin/tax-providers?id=tp_${ids.failing}`)).json();
    expect(one.tax_providers.map((p: { id: string }) => p.id)).toEqual([`tp_${ids.failing}`]);

    // A region on the built-in rates switches to the plugin's provider and back (the panel's select).
    const region = await regionWithProvider('fi', 'tp_system');
    const product = await pricedProduct(t, 1000);
    const cartTax = async () => {
      const { cart } = await ok200(
        await t.store('POST', '/store/carts', {
          region_id: region.id,
          items: [{ variant_id: product.variants[0].id, quantity: 1 }],
        }),
      );
      return (cart as { tax_total: number }).tax_total;
    };
    expect(await cartTax()).toBe(190);
    const [taxRegion] = (await t.admin('GET', '/admin/tax-regions?country_code=fi')).json().tax_regions;
    const switched = await t.admin('POST', `/admin/tax-regions/${taxRegion.id}`, {
      provider_id: `tp_${ids.computing}`,
    });
    expect(switched.json().tax_region.provider_id).toBe(`tp_${ids.computing}`);
    expect(await cartTax()).toBe(200); // the provider's rate: the shop's 19 plus one
    await t.admin('POST', `/admin/tax-regions/${taxRegion.id}`, { provider_id: 'tp_system' });
    expect(await cartTax()).toBe(190);
  });
});
