import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, statusAndBody } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { uniq } from '../products/products.testing.ts';

/**
 * `/admin/promotions` and `/admin/campaigns` through the Medusa JS SDK, as Medusa's admin drives
 * them: standard and buy X get Y promotions with their rules, updates of the application method,
 * rule batches, campaigns with a budget, and the refusals (Medusa's messages, nothing written).
 */

let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

const values = (r: { values: { value: string }[] }) => r.values.map((v) => v.value);

describe('admin promotions through the SDK', () => {
  it('creates, lists, retrieves, updates and deletes a standard promotion', async () => {
    const code = `SAVE${uniq()}`;
    const { promotion } = await sdk.admin.promotion.create({
      code,
      type: 'standard',
      status: 'active',
      application_method: {
        type: 'percentage',
        value: 10,
        target_type: 'items',
        allocation: 'each',
        max_quantity: 2,
        target_rules: [{ attribute: 'items.product.collection_id', operator: 'in', values: ['pcol_summer'] }],
      },
      rules: [{ attribute: 'currency_code', operator: 'in', values: ['eur'] }],
    });
    expect(promotion.id).toMatch(/^promo_/);
    expect(promotion).toMatchObject({ code, type: 'standard', status: 'active', is_automatic: false });
    expect(promotion.application_method).toMatchObject({ type: 'percentage', value: 10, max_quantity: 2 });
    expect(values(promotion.application_method!.target_rules![0] as never)).toEqual(['pcol_summer']);

    const list = await sdk.admin.promotion.list({ q: code.slice(-6), limit: 5 } as never);
    expect(list).toMatchObject({ count: 1, limit: 5, offset: 0 });
    expect(list.promotions.map((p) => p.id)).toEqual([promotion.id]);

    // The whole method and the rules replaced, as the panel's edit form sends them.
    const { promotion: updated } = await sdk.admin.promotion.update(promotion.id, {
      status: 'inactive',
      application_method: {
        type: 'fixed',
        value: 500,
        currency_code: 'eur',
        target_type: 'order',
        allocation: 'across',
        max_quantity: null,
        target_rules: [],
      },
      rules: [{ attribute: 'item_total', operator: 'gte', values: ['5000'] }],
    } as never);
    expect(updated).toMatchObject({ status: 'inactive' });
    expect(updated.application_method).toMatchObject({
      type: 'fixed',
      value: 500,
      currency_code: 'eur',
      target_type: 'order',
      allocation: 'across',
      max_quantity: null,
      target_rules: [],
    });
    expect(updated.rules!.map((r) => [r.attribute, r.operator, values(r as never)])).toEqual([
      ['item_total', 'gte', ['5000']],
    ]);
    const { promotion: again } = await sdk.admin.promotion.retrieve(promotion.id);
    expect(again.rules).toHaveLength(1);

    expect(await sdk.admin.promotion.delete(promotion.id)).toEqual({
      id: promotion.id,
      object: 'promotion',
      deleted: true,
    });
    expect(statusAndBody(await t.admin('GET', `/admin/promotions/${promotion.id}`))).toMatchObject({
      status: 404,
      type: 'not_found',
      code: 'promotion_not_found',
      message: `Promotion with id "${promotion.id}" not found`,
    });
  });

  it('makes a buy X get Y, and refuses one without its quantities or rules, writing nothing', async () => {
    const code = `B2G1${uniq()}`;
    const base = {
      code,
      type: 'buyget' as const,
      status: 'active' as const,
      application_method: {
        type: 'percentage' as const,
        value: 100,
        target_type: 'items' as const,
        allocation: 'each' as const,
        max_quantity: 1,
        apply_to_quantity: 1,
        buy_rules_min_quantity: 2,
        buy_rules: [{ attribute: 'items.product.id', operator: 'in' as const, values: ['prod_shirt'] }],
        target_rules: [{ attribute: 'items.product.id', operator: 'in' as const, values: ['prod_mug'] }],
      },
    };
    for (const [drop, message] of [
      ['buy_rules_min_quantity', 'buy_rules_min_quantity is a required field for Promotion type of buyget'],
      ['apply_to_quantity', 'apply_to_quantity is a required field for Promotion type of buyget'],
    ] as const) {
      const res = await t.admin('POST', '/admin/promotions', {
        ...base,
        application_method: { ...base.application_method, [drop]: null },
      });
      expect(statusAndBody(res)).toMatchObject({ status: 400, type: 'invalid_data', message });
    }
    const noBuy = await t.admin('POST', '/admin/promotions', {
      ...base,
      application_method: { ...base.application_method, buy_rules: [] },
    });
    expect(statusAndBody(noBuy)).toMatchObject({
      status: 400,
      message: 'buy_rules are required for Promotion type of buyget',
    });
    expect((await sdk.admin.promotion.list({ code } as never)).count).toBe(0);

    const { promotion } = await sdk.admin.promotion.create(base);
    expect(promotion.application_method).toMatchObject({
      apply_to_quantity: 1,
      buy_rules_min_quantity: 2,
    });
    expect(values(promotion.application_method!.buy_rules![0] as never)).toEqual(['prod_shirt']);

    // Rules added and removed by batch, per kind.
    await sdk.admin.promotion.addRules(promotion.id, 'buy-rules', {
      rules: [{ attribute: 'items.product.tags.id', operator: 'in', values: ['ptag_new'] }],
    } as never);
    const added = (await sdk.admin.promotion.retrieve(promotion.id)).promotion.application_method!.buy_rules!;
    expect(added.map((r) => r.attribute)).toEqual(['items.product.id', 'items.product.tags.id']);
    await sdk.admin.promotion.updateRules(promotion.id, 'buy-rules', {
      rules: [{ id: added[1].id, operator: 'ne', values: ['ptag_old'] }],
    } as never);
    await sdk.admin.promotion.removeRules(promotion.id, 'buy-rules', { rule_ids: [added[0].id] } as never);
    const left = (await sdk.admin.promotion.retrieve(promotion.id)).promotion.application_method!.buy_rules!;
    expect(left.map((r) => [r.id, r.attribute, r.operator, values(r as never)])).toEqual([
      [added[1].id, 'items.product.tags.id', 'ne', ['ptag_old']],
    ]);
    // A rule of another promotion (or none) is refused, and nothing changes.
    const stranger = await t.admin('POST', `/admin/promotions/${promotion.id}/buy-rules/batch`, {
      update: [{ id: 'prorul_nope', operator: 'eq' }],
      delete: [added[1].id],
    });
    expect(statusAndBody(stranger)).toMatchObject({
      status: 400,
      code: 'promotion_rule_not_found',
      message: 'Promotion rule with id "prorul_nope" not found',
    });
    expect((await sdk.admin.promotion.retrieve(promotion.id)).promotion.application_method!.buy_rules).toHaveLength(1);

    // A percentage above 100 and a taken code are refused with Medusa's words.
    const over = await t.admin('POST', `/admin/promotions/${promotion.id}`, { application_method: { value: 150 } });
    expect(statusAndBody(over)).toMatchObject({
      status: 400,
      code: 'promotion_percentage_out_of_range',
      message: 'Application Method value should be a percentage number between 0 and 100',
    });
    const taken = await t.admin('POST', '/admin/promotions', base);
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual({
      type: 'duplicate_error',
      code: 'invalid_request_error',
      message: `Promotion with code: ${base.code}, already exists.`,
    });
    expect((await sdk.admin.promotion.retrieve(promotion.id)).promotion.application_method).toMatchObject({
      value: 100,
    });
  });
});

describe('admin campaigns through the SDK', () => {
  it('creates a campaign with a budget, links promotions, updates and deletes it', async () => {
    const identifier = `SUMMER-${uniq()}`;
    const { campaign } = await sdk.admin.campaign.create({
      name: 'Summer',
      campaign_identifier: identifier,
      starts_at: new Date('2026-06-01T00:00:00Z'),
      ends_at: new Date('2026-08-31T00:00:00Z'),
      budget: { type: 'spend', limit: 50000, currency_code: 'eur' },
    } as never);
    expect(campaign).toMatchObject({
      name: 'Summer',
      campaign_identifier: identifier,
      budget: { type: 'spend', limit: 50000, used: 0, currency_code: 'eur' },
    });
    expect(
      (await sdk.admin.campaign.list({ campaign_identifier: identifier } as never)).campaigns.map((c) => c.id),
    ).toEqual([campaign.id]);

    const { promotion } = await sdk.admin.promotion.create({
      code: `CAMP${uniq()}`,
      type: 'standard',
      application_method: { type: 'fixed', value: 300, currency_code: 'eur', target_type: 'order' },
    });
    await sdk.admin.campaign.batchPromotions(campaign.id, { add: [promotion.id] });
    expect((await sdk.admin.promotion.retrieve(promotion.id)).promotion).toMatchObject({
      campaign_id: campaign.id,
      campaign: { id: campaign.id, name: 'Summer' },
    });

    const { campaign: raised } = await sdk.admin.campaign.update(campaign.id, {
      budget: { limit: 80000 },
    } as never);
    expect(raised.budget).toMatchObject({ type: 'spend', limit: 80000, used: 0 });
    const backwards = await t.admin('POST', `/admin/campaigns/${campaign.id}`, {
      starts_at: '2026-09-01T00:00:00Z',
    });
    expect(backwards.statusCode).toBe(400);
    expect((await sdk.admin.campaign.retrieve(campaign.id)).campaign.starts_at).toBe('2026-06-01T00:00:00.000Z');

    expect(await sdk.admin.campaign.delete(campaign.id)).toEqual({
      id: campaign.id,
      object: 'campaign',
      deleted: true,
    });
    expect(statusAndBody(await t.admin('GET', `/admin/campaigns/${campaign.id}`))).toMatchObject({ status: 404 });
  });
});

describe('the rule editor of Medusa’s admin, through the SDK', () => {
  it('lists the attributes of each kind of rule, their values with labels, and a promotion’s rules labeled', async () => {
    const regionName = `Nordics ${uniq()}`;
    const region = await t.admin('POST', '/admin/regions', { name: regionName, currency_code: 'eur' });
    expect(region.statusCode, region.body).toBe(200);
    const regionId = region.json().region.id as string;
    const group = await t.admin('POST', '/admin/customer-groups', { name: `VIP ${uniq()}` });
    const groupId = group.json().customer_group.id as string;

    const cart = await sdk.admin.promotion.listRuleAttributes('rules');
    expect(cart.attributes.map((a) => a.id)).toEqual(['customer_group', 'region', 'country', 'currency_code']);
    expect(cart.attributes.find((a) => a.id === 'region')).toMatchObject({
      value: 'region.id',
      label: 'Region',
      field_type: 'multiselect',
      operators: [
        expect.objectContaining({ value: 'in' }),
        expect.objectContaining({ value: 'eq' }),
        expect.anything(),
      ],
    });
    expect(cart.attributes.find((a) => a.id === 'currency_code')).toMatchObject({ disguised: true, required: false });
    const buy = await sdk.admin.promotion.listRuleAttributes('buy-rules', 'buyget');
    expect(buy.attributes.map((a) => a.id)).toContain('buy_rules_min_quantity');
    const target = await sdk.admin.promotion.listRuleAttributes('target-rules', 'standard');
    expect(target.attributes.map((a) => a.value)).toContain('items.product.collection_id');
    const badKind = await t.admin('GET', '/admin/promotions/rule-attribute-options/wishes');
    expect(badKind.statusCode).toBe(400);

    const regions = await sdk.admin.promotion.listRuleValues('rules', 'region', { q: regionName.slice(-6) } as never);
    expect(regions.values).toEqual([{ label: regionName, value: regionId }]);
    const euro = await sdk.admin.promotion.listRuleValues('rules', 'currency_code', { value: ['eur'] } as never);
    expect(euro.values).toEqual([{ label: 'Euro', value: 'eur' }]);
    const germany = await sdk.admin.promotion.listRuleValues('rules', 'country', { q: 'germ' } as never);
    expect(germany.values).toContainEqual({ label: 'Germany', value: 'de' });
    const paged = await sdk.admin.promotion.listRuleValues('rules', 'country', { limit: 5, offset: 5 } as never);
    expect(paged.values).toHaveLength(5);
    // A product is tested by target and buy rules, not by the cart's own.
    const notHere = await t.admin('GET', '/admin/promotions/rule-value-options/rules/product');
    expect(statusAndBody(notHere)).toMatchObject({ status: 400, code: 'promotion_rule_attribute_invalid' });

    const { promotion } = await sdk.admin.promotion.create({
      code: `RULES${uniq()}`,
      type: 'standard',
      application_method: {
        type: 'fixed',
        value: 500,
        currency_code: 'eur',
        target_type: 'items',
        allocation: 'across',
        target_rules: [{ attribute: 'items.product.collection_id', operator: 'in', values: ['pcol_gone'] }],
      },
      rules: [
        { attribute: 'region.id', operator: 'in', values: [regionId] },
        { attribute: 'customer.groups.id', operator: 'ne', values: [groupId] },
      ],
    } as never);
    const { rules } = await sdk.admin.promotion.listRules(promotion.id, 'rules');
    expect(rules.map((r) => [r.attribute, r.operator, r.values])).toEqual([
      ['currency_code', 'eq', [{ label: 'Euro', value: 'eur' }]],
      ['region.id', 'in', [{ label: regionName, value: regionId }]],
      ['customer.groups.id', 'ne', [{ label: group.json().customer_group.name, value: groupId }]],
    ]);
    expect(rules[0]).toMatchObject({ disguised: true, required: true, attribute_label: 'Currency Code' });
    expect(rules[0].id).toBeUndefined();
    expect(rules[2]).toMatchObject({
      id: expect.stringMatching(/./),
      attribute_label: 'Customer Group',
      operator_label: 'Not In',
    });
    // A value naming nothing that exists is shown as it is.
    const targets = await sdk.admin.promotion.listRules(promotion.id, 'target-rules');
    expect(targets.rules.map((r) => r.values)).toEqual([[{ label: 'pcol_gone', value: 'pcol_gone' }]]);
    expect(statusAndBody(await t.admin('GET', '/admin/promotions/promo_nope/rules'))).toMatchObject({ status: 404 });
    // The create form asks with no promotion: what a fixed-amount promotion must start with.
    const fresh = await sdk.admin.promotion.listRules(null, 'rules', {
      promotion_type: 'standard',
      application_method_type: 'fixed',
    } as never);
    expect(fresh.rules).toEqual([
      expect.objectContaining({ attribute: 'currency_code', required: true, disguised: true, values: [] }),
    ]);
  });
});
