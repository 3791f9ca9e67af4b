import type { TestApp } from '../../../test/app.ts';
import type { JsonObject, ProviderPort } from '../../platform/providers.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { ok200, pricedProduct } from './pricing.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

/**
 * A tax provider whose answers a test holds and watches, registered as a plugin's would be
 * (`t.app.providers.tax.add(c.provider)`): it answers 10 % on every line and method, records what
 * it was asked (`asked`), can keep its next answer waiting (`holdNextAsk`), and runs `onAsk`
 * before each answer (a test that changes the cart at every ask).
 */
export function controlledTaxProvider(id: string, name: string) {
  const asked: JsonObject[] = [];
  let held: { arrive(): void; released: Promise<void> } | null = null;
  const c = {
    asked,
    onAsk: null as (() => Promise<void>) | null,
    provider: {
      id,
      owner: 'tests',
      name,
      methods: ['getTaxLines'],
      channels: [],
      async call(_method, input) {
        asked.push(input);
        const hold = held;
        held = null;
        if (hold) {
          hold.arrive();
          await hold.released;
        }
        await c.onAsk?.();
        const line = { rate: 10, code: 'CT', name: 'Controlled tax' };
        return {
          item_tax_lines: (input.items as Json[]).map((i) => ({ ...line, line_item_id: i.id })),
          shipping_tax_lines: (input.shipping_methods as Json[]).map((m) => ({ ...line, shipping_line_id: m.id })),
        };
      },
    } satisfies ProviderPort as ProviderPort,
    /** Holds the next answer: `arrived` when the provider was asked, answered after `release()`. */
    holdNextAsk() {
      let arrive = () => {};
      let release = () => {};
      const arrived = new Promise<void>((r) => {
        arrive = r;
      });
      const released = new Promise<void>((r) => {
        release = r;
      });
      held = { arrive, released };
      return { arrived, release };
    },
  };
  return c;
}

/**
 * What a test of a controlled provider sells with: the provider registered with the shop, a fresh
 * region whose tax region asks it (19 % VAT as its own default rate), and a product at 1000.
 */
export async function shopTaxedBy(t: TestApp, controlled: ReturnType<typeof controlledTaxProvider>) {
  t.app.providers.tax.add(controlled.provider);
  const region = await makeRegion(t);
  await ok200(
    await t.admin('POST', '/admin/tax-regions', {
      country_code: region.countries[0].iso_2,
      provider_id: controlled.provider.id,
      default_tax_rate: { rate: 19, code: 'VAT', name: 'VAT' },
    }),
  );
  const variantId = (await pricedProduct(t, 1000)).variants[0].id;
  return { region, variantId };
}
