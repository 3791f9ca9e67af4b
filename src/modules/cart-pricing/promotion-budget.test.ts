import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { textArray } from '../../platform/db/prepared.ts';
import { uniq } from '../checkout/checkout.testing.ts';
import { ok200, pricedProduct, promotion, taxedRegion } from './pricing.testing.ts';

/**
 * A campaign budget holds under load: 100 carts carrying a code whose campaign allows 10 uses
 * complete at once; exactly 10 orders are placed (each discounted), the other 90 get a 400
 * not_allowed and write nothing (no order, no usage, no stock, the cart still open).
 */
const CARTS = 100;
const BUDGET = 10;

describe('campaign budget race', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it(`${CARTS} completions with a usage budget of ${BUDGET} place exactly ${BUDGET} discounted orders`, async () => {
    const { region } = await taxedRegion(t, 'nl', 21);
    const item = await pricedProduct(t, 2000);
    const { campaign } = await ok200(
      await t.admin('POST', '/admin/campaigns', {
        name: 'Launch',
        campaign_identifier: `launch-${uniq()}`,
        budget: { type: 'usage', limit: BUDGET },
      }),
    );
    const promo = await promotion(t, {
      code: `LAUNCH${uniq()}`,
      type: 'standard',
      campaign_id: (campaign as { id: string }).id,
      application_method: { type: 'percentage', value: 25, target_type: 'order' },
    });
    const carts: string[] = [];
    for (let i = 0; i < CARTS; i++) {
      const { cart } = await ok200(
        await t.store('POST', '/store/carts', {
          region_id: region.id,
          email: `buyer${i}@example.com`,
          items: [{ variant_id: item.variants[0].id, quantity: 1 }],
        }),
      );
      const applied = await ok200(
        await t.store('POST', `/store/carts/${(cart as { id: string }).id}/promotions`, { promo_codes: [promo.code] }),
      );
      expect((applied.cart as { discount_total: number }).discount_total).toBeGreaterThan(0);
      carts.push((cart as { id: string }).id);
    }

    const burst = await Promise.all(carts.map((id) => t.store('POST', `/store/carts/${id}/complete`, {})));
    // PostgreSQL's pool (10 connections, 3 s to get one) sheds what it cannot serve in time with a
    // 503 and nothing written; those carts are completed again, one by one, after the burst.
    const results = [];
    for (const [i, r] of burst.entries())
      results.push(r.statusCode === 503 ? await t.store('POST', `/store/carts/${carts[i]}/complete`, {}) : r);
    const placed = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(placed).toHaveLength(BUDGET);
    for (const r of placed) expect(r.json().order.discount_total).toBeGreaterThan(0);
    expect(refused).toHaveLength(CARTS - BUDGET);
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json()).toMatchObject({
        type: 'not_allowed',
        code: 'promotion_budget_exhausted',
        message: expect.stringContaining('budget'),
      });
    }
    const [counts] = await rows<{ orders: number; usages: number; used: string; open: number }>(
      t.database.db,
      sql`select (select count(*)::int from orders where cart_id in (select unnest(${textArray(carts)}))) as orders,
        (select count(*)::int from promotion_usages where promotion_id = ${promo.id}) as usages,
        (select budget_used::text from campaigns where id = ${(campaign as { id: string }).id}) as used,
        (select count(*)::int from carts where id in (select unnest(${textArray(carts)})) and completed_at is null) as open`,
    );
    expect(counts).toEqual({ orders: BUDGET, usages: BUDGET, used: String(BUDGET), open: CARTS - BUDGET });
    const { campaign: after } = await ok200(
      await t.admin('GET', `/admin/campaigns/${(campaign as { id: string }).id}`),
    );
    expect(after).toMatchObject({ budget: { type: 'usage', limit: BUDGET, used: BUDGET } });
  }, 600_000);
});
