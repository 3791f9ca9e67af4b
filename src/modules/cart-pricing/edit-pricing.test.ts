import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { ok200, pricedProduct, promotion, taxedRegion } from './pricing.testing.ts';

/** A line an order edit adds is priced as a cart would price it: the order's tax and its promotions. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Line = {
  id: string;
  variant_id: string;
  tax_lines: { rate: number }[];
  adjustments: { amount: number }[];
  subtotal: number;
  total: number;
  tax_total: number;
};

describe('order edits and pricing', () => {
  it("gives an added line the order's tax lines and its promotion's discount, kept after confirmation", async () => {
    const { region } = await taxedRegion(t, 'at', 20);
    const first = await pricedProduct(t, 5000);
    const second = await pricedProduct(t, 2000);
    await promotion(t, {
      code: `EDIT10-${Date.now()}`,
      type: 'standard',
      is_automatic: true,
      application_method: { type: 'percentage', value: 10, target_type: 'items', allocation: 'each', max_quantity: 10 },
    });
    const { cart } = await ok200(
      await t.store('POST', '/store/carts', {
        region_id: region.id,
        email: 'edit-pricing@example.com',
        items: [{ variant_id: first.variants[0].id, quantity: 1 }],
      }),
    );
    const placed = (await ok200(await t.store('POST', `/store/carts/${(cart as { id: string }).id}/complete`, {})))
      .order as unknown as { id: string; total: number };
    expect(placed.total).toBe(5400); // 5000 - 500, + 20 % of 4500

    await ok200(await t.admin('POST', '/admin/order-edits', { order_id: placed.id }));
    const { order_preview: preview } = await ok200(
      await t.admin('POST', `/admin/order-edits/${placed.id}/items`, {
        items: [{ variant_id: second.variants[0].id, quantity: 2 }],
      }),
    );
    const addedLine = (preview as unknown as { items: Line[] }).items.find(
      (i) => i.variant_id === second.variants[0].id,
    )!;
    expect(addedLine.tax_lines.map((l) => l.rate)).toEqual([20]);
    expect(addedLine.adjustments.map((a) => a.amount)).toEqual([400]);
    expect(addedLine).toMatchObject({ subtotal: 4000, tax_total: 720, total: 4320 });
    // The edit's money counts the line as charged: its tax in, its discount out.
    type Preview = {
      summary: { current_order_total: number };
      order_change: { actions: { id: string; action: string }[] };
    };
    expect((preview as unknown as Preview).summary.current_order_total).toBe(5400 + 4320);

    // Three instead of two: priced again (the discount follows the quantity).
    const addAction = (preview as unknown as Preview).order_change.actions.find((a) => a.action === 'ITEM_ADD')!;
    const { order_preview: more } = await ok200(
      await t.admin('POST', `/admin/order-edits/${placed.id}/items/${addAction.id}`, { quantity: 3 }),
    );
    const three = (more as unknown as { items: Line[] }).items.find((i) => i.variant_id === second.variants[0].id)!;
    expect(three.adjustments.map((a) => a.amount)).toEqual([600]);
    expect(three).toMatchObject({ subtotal: 6000, tax_total: 1080, total: 6480 });

    // The placed line at two: 10000 less 1000, + 20 %.
    const firstLine = (more as unknown as { items: Line[] }).items.find((i) => i.variant_id === first.variants[0].id)!;
    const { order_preview: both } = await ok200(
      await t.admin('POST', `/admin/order-edits/${placed.id}/items/item/${firstLine.id}`, { quantity: 2 }),
    );
    const two = (both as unknown as { items: Line[] }).items.find((i) => i.id === firstLine.id)!;
    expect(two).toMatchObject({ subtotal: 10000, tax_total: 1800, total: 10800 });
    expect((both as unknown as Preview).summary.current_order_total).toBe(10800 + 6480);
    // The preview's own totals are the edited order's.
    expect(both).toMatchObject({ total: 10800 + 6480, tax_total: 1800 + 1080 });

    await ok200(await t.admin('POST', `/admin/order-edits/${placed.id}/request`, {}));
    await ok200(await t.admin('POST', `/admin/order-edits/${placed.id}/confirm`, {}));
    const { order } = await ok200(await t.admin('GET', `/admin/orders/${placed.id}`));
    const view = order as unknown as {
      items: Line[];
      total: number;
      tax_total: number;
      summary: { current_order_total: number; original_order_total: number };
    };
    const kept = view.items.find((i) => i.variant_id === second.variants[0].id)!;
    expect(kept).toMatchObject({ subtotal: 6000, tax_total: 1080, total: 6480 });
    expect(view).toMatchObject({ total: 10800 + 6480, tax_total: 1800 + 1080 });
    // What the summary counts is what the order shows.
    expect(view.summary).toMatchObject({ current_order_total: 10800 + 6480, original_order_total: 5400 });
  });
});
