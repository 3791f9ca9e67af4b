import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, sdkRefusal } from '../../../test/medusa-sdk.ts';
import { uniq } from '../checkout/checkout.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: SDK answers read as JSON
type Json = any;

let t: TestApp;
let admin: Json;
let zoneId: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await medusaSdks(t)).dashboard;
  const { stock_location: loc } = await admin.admin.stockLocation.create({ name: `Hub ${uniq()}` });
  const set = (await admin.admin.stockLocation.createFulfillmentSet(loc.id, { name: 'Parcels', type: 'shipping' }))
    .stock_location.fulfillment_sets[0];
  zoneId = (
    await admin.admin.fulfillmentSet.createServiceZone(set.id, {
      name: 'Germany',
      geo_zones: [{ type: 'country', country_code: 'de' }],
    })
  ).fulfillment_set.service_zones[0].id;
});
afterAll(() => t.close());

const option = (extra: Json) =>
  admin.admin.shippingOption.create({
    name: `Option ${uniq()}`,
    service_zone_id: zoneId,
    shipping_profile_id: 'sp_default',
    provider_id: 'manual_manual',
    price_type: 'flat',
    prices: [{ currency_code: 'eur', amount: 495 }],
    ...extra,
  });

describe('shipping option types (sdk.admin.shippingOptionType)', () => {
  it('creates, lists, reads, updates (options follow) and deletes a type; options share it by type_id', async () => {
    const { shipping_option_type: express } = await admin.admin.shippingOptionType.create({
      label: 'Express',
      code: `express-${uniq()}`,
      description: 'next day',
    });
    expect(express).toMatchObject({ id: expect.stringMatching(/^sotype_/), label: 'Express', description: 'next day' });
    const { shipping_option: a } = await option({ type_id: express.id });
    const { shipping_option: b } = await option({ type_id: express.id });
    expect(a.type).toEqual({ id: express.id, label: 'Express', code: express.code, description: 'next day' });
    expect(b.type.id).toBe(express.id);

    const listed = await admin.admin.shippingOptionType.list({ code: [express.code] });
    expect(listed.shipping_option_types.map((x: Json) => x.id)).toEqual([express.id]);
    expect(listed.count).toBe(1);
    expect(
      (await admin.admin.shippingOptionType.list({ q: 'expr', limit: 100 })).shipping_option_types.map(
        (x: Json) => x.id,
      ),
    ).toContain(express.id);
    expect((await admin.admin.shippingOptionType.retrieve(express.id)).shipping_option_type.label).toBe('Express');

    const { shipping_option_type: renamed } = await admin.admin.shippingOptionType.update(express.id, {
      label: 'Express 24h',
    });
    expect(renamed.label).toBe('Express 24h');
    for (const id of [a.id, b.id])
      expect((await admin.admin.shippingOption.retrieve(id)).shipping_option.type.label).toBe('Express 24h');

    // In use: refused, nothing deleted; once the options have another type it goes.
    expect(await sdkRefusal(admin.admin.shippingOptionType.delete(express.id))).toMatchObject({ status: 400 });
    expect((await admin.admin.shippingOptionType.retrieve(express.id)).shipping_option_type.id).toBe(express.id);
    const { shipping_option_type: standard } = await admin.admin.shippingOptionType.create({
      label: 'Standard',
      code: 'standard',
    });
    for (const id of [a.id, b.id]) await admin.admin.shippingOption.update(id, { type_id: standard.id });
    expect(await admin.admin.shippingOptionType.delete(express.id)).toEqual({
      id: express.id,
      object: 'shipping_option_type',
      deleted: true,
    });
    expect((await sdkRefusal(admin.admin.shippingOptionType.retrieve(express.id))).status).toBe(404);
    expect((await admin.admin.shippingOption.retrieve(a.id)).shipping_option.type).toMatchObject({
      id: standard.id,
      label: 'Standard',
    });
  });

  it('gives an option created with an inline type a type of its own, listed with the others', async () => {
    const code = `pickup-${uniq()}`;
    const { shipping_option: so } = await option({ type: { label: 'Pickup', code } });
    expect(so.type).toMatchObject({ id: expect.stringMatching(/^sotype_/), label: 'Pickup', code, description: '' });
    const { shipping_option_type: own } = await admin.admin.shippingOptionType.retrieve(so.type.id);
    expect(own).toMatchObject({ label: 'Pickup', code });
  });

  it('answers bad input with 4xx and writes nothing', async () => {
    const before = (await admin.admin.shippingOptionType.list({ limit: 0 })).count;
    expect((await sdkRefusal(admin.admin.shippingOptionType.create({ label: 'No code' } as never))).status).toBe(400);
    expect((await sdkRefusal(admin.admin.shippingOptionType.create({ label: ' ', code: 'x' }))).status).toBe(400);
    expect(
      (await sdkRefusal(admin.admin.shippingOptionType.create({ label: 'X', code: 'x', extra: 1 } as never))).status,
    ).toBe(400);
    expect((await sdkRefusal(admin.admin.shippingOptionType.update('sotype_nope', { label: 'X' }))).status).toBe(404);
    expect((await sdkRefusal(admin.admin.shippingOptionType.delete('sotype_nope'))).status).toBe(404);
    expect((await sdkRefusal(option({ type_id: 'sotype_nope' }))).status).toBe(400);
    expect((await admin.admin.shippingOptionType.list({ limit: 0 })).count).toBe(before);
  });
});

describe('shipping option rules in a batch (sdk.admin.shippingOption.updateRules)', () => {
  it('creates, updates and deletes rules at once; the other rules stay', async () => {
    const { shipping_option: so } = await option({
      rules: [
        { attribute: 'enabled_in_store', operator: 'eq', value: 'true' },
        { attribute: 'is_return', operator: 'eq', value: 'false' },
      ],
    });
    const rule = (attribute: string) => so.rules.find((r: Json) => r.attribute === attribute);
    const [inStore, isReturn] = [rule('enabled_in_store'), rule('is_return')];
    const res = await admin.admin.shippingOption.updateRules(so.id, {
      create: [{ attribute: 'customer_group', operator: 'in', value: ['vip', 'staff'] }],
      update: [{ id: inStore.id, attribute: 'enabled_in_store', operator: 'eq', value: 'false' }],
      delete: [],
    });
    expect(res.created).toEqual([
      expect.objectContaining({
        attribute: 'customer_group',
        operator: 'in',
        value: ['vip', 'staff'],
        shipping_option_id: so.id,
      }),
    ]);
    expect(res.updated).toEqual([expect.objectContaining({ id: inStore.id, value: 'false' })]);
    expect(res.deleted).toEqual({ ids: [], object: 'shipping_option_rule', deleted: true });

    const del = await admin.admin.shippingOption.updateRules(so.id, { delete: [res.created[0].id] });
    expect(del.deleted.ids).toEqual([res.created[0].id]);
    const { shipping_option: after } = await admin.admin.shippingOption.retrieve(so.id);
    expect(after.rules.map((r: Json) => [r.id, r.attribute, r.value]).sort()).toEqual(
      [
        [inStore.id, 'enabled_in_store', 'false'],
        [isReturn.id, 'is_return', 'false'],
      ].sort(),
    );
  });

  it("refuses another option's rule or an unknown option, and writes nothing", async () => {
    const { shipping_option: mine } = await option({
      rules: [{ attribute: 'is_return', operator: 'eq', value: 'false' }],
    });
    const { shipping_option: other } = await option({
      rules: [{ attribute: 'is_return', operator: 'eq', value: 'false' }],
    });
    const bad = await sdkRefusal(
      admin.admin.shippingOption.updateRules(mine.id, {
        create: [{ attribute: 'enabled_in_store', operator: 'eq', value: 'false' }],
        delete: [other.rules[0].id],
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.message).toContain(other.rules[0].id);
    expect((await admin.admin.shippingOption.retrieve(mine.id)).shipping_option.rules).toHaveLength(1);
    expect((await admin.admin.shippingOption.retrieve(other.id)).shipping_option.rules).toHaveLength(1);
    expect((await sdkRefusal(admin.admin.shippingOption.updateRules('so_nope', { delete: [] }))).status).toBe(404);
    const res = await t.admin('POST', `/admin/shipping-options/${mine.id}/rules/batch`, {
      create: [{ attribute: 'x' }],
    });
    expect(res.statusCode, res.body).toBe(400);
  });
});
