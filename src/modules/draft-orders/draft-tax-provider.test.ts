import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { controlledTaxProvider, shopTaxedBy } from '../cart-pricing/controlled-tax.testing.ts';
import { ok200 } from '../cart-pricing/pricing.testing.ts';
import { uniq } from '../checkout/checkout.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

/**
 * A draft's plugin tax provider is asked outside the draft's transaction, as a cart's is
 * (cart-pricing/tax-answers.ts): a provider whose answer the test holds keeps no lock on the
 * draft, so another write to the draft goes through meanwhile; the draft is then priced with
 * the provider's answer.
 */

const ID = 'tp_draft_controlled';
const controlled = controlledTaxProvider(ID, 'Controlled tax service (drafts)');
const { asked, holdNextAsk } = controlled;

let t: TestApp;
let region: Json;
let variantId: string;

beforeAll(async () => {
  t = await startTestApp();
  ({ region, variantId } = await shopTaxedBy(t, controlled));
}, 120_000);
afterAll(() => t?.close());

const address = (city: string) => ({
  first_name: 'Ada',
  address_1: '1 Street',
  city,
  postal_code: '20095',
  country_code: region.countries[0].iso_2,
});

describe("a draft order's tax provider and the draft's lock", () => {
  it('the provider is asked with the draft unlocked: another write goes through; the draft takes its answer', async () => {
    const { draft_order: draft } = (await ok200(
      await t.admin('POST', '/admin/draft-orders', {
        region_id: region.id,
        email: `draft-tax-${uniq()}@example.com`,
        items: [{ variant_id: variantId, quantity: 2 }],
        shipping_address: address('Hamburg'),
      }),
    )) as Json;
    // Priced by the provider's 10 %, not the region's 19 %.
    expect(draft.tax_total).toBe(200);
    expect(draft.items[0].tax_lines.map((l: Json) => l.rate)).toEqual([10]);

    const before = asked.length;
    const slow = holdNextAsk();
    const moving = t.admin('POST', `/admin/draft-orders/${draft.id}`, { shipping_address: address('Berlin') });
    await slow.arrived;
    // The provider has not answered: the draft is not locked, so this write goes through.
    const noted = await t.admin('POST', `/admin/draft-orders/${draft.id}`, { metadata: { note: 'call back' } });
    expect(noted.statusCode, noted.body).toBe(200);
    slow.release();
    const moved = await moving;
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().draft_order).toMatchObject({
      tax_total: 200,
      metadata: { note: 'call back' },
      shipping_address: expect.objectContaining({ city: 'Berlin' }),
    });
    // Asked once, about Berlin, outside the transaction that wrote it.
    expect(asked.length).toBe(before + 1);
    expect(asked.at(-1)?.shipping_address).toMatchObject({ city: 'Berlin' });
  });
});
