import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, statusAndBody } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { customerEvents } from '../customers/customers.testing.ts';
import { expectSchema, uniq } from '../products/products.testing.ts';
import { CustomerGroupList } from './schema.ts';

let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

const makeCustomer = async () =>
  (await sdk.admin.customer.create({ email: `group-${uniq()}@example.com`, first_name: 'Ada' })).customer;

describe('admin customer groups', () => {
  it('creates, lists, retrieves, updates and deletes through the SDK, with events', async () => {
    const name = `VIP ${uniq()}`;
    const { customer_group: group } = await sdk.admin.customerGroup.create({ name, metadata: { tier: 1 } });
    expect(group).toMatchObject({ name, metadata: { tier: 1 }, deleted_at: null });
    expect(group.id).toMatch(/^cusgroup_/);

    const list = await sdk.admin.customerGroup.list({ q: name.slice(-8), limit: 5 });
    expectSchema(CustomerGroupList, list);
    expect(list).toMatchObject({ count: 1, limit: 5, offset: 0 });
    expect(list.customer_groups.map((g) => g.id)).toEqual([group.id]);

    const renamed = `Gold ${uniq()}`;
    expect((await sdk.admin.customerGroup.update(group.id, { name: renamed })).customer_group.name).toBe(renamed);
    expect((await sdk.admin.customerGroup.retrieve(group.id)).customer_group.name).toBe(renamed);
    expect(await sdk.admin.customerGroup.delete(group.id)).toEqual({
      id: group.id,
      object: 'customer_group',
      deleted: true,
    });
    expect(statusAndBody(await t.admin('GET', `/admin/customer-groups/${group.id}`))).toMatchObject({
      status: 404,
      type: 'not_found',
      code: 'customer_group_not_found',
      message: `Customer group with id: ${group.id} was not found`,
    });
    const events = (await customerEvents(t, group.id)).map((e) => e.name);
    expect(events).toEqual(['customer_group.created', 'customer_group.updated', 'customer_group.deleted']);
  });

  it('refuses a duplicate name, unknown fields and an empty name with a 4xx', async () => {
    const name = `Dup ${uniq()}`;
    await sdk.admin.customerGroup.create({ name });
    const dup = await t.admin('POST', '/admin/customer-groups', { name });
    expect(dup.statusCode).toBeGreaterThanOrEqual(400);
    expect(dup.statusCode).toBeLessThan(500);
    expect(dup.json().message).toContain(name);
    expect((await t.admin('POST', '/admin/customer-groups', { name: '' })).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/customer-groups', { name: 'x', color: 'red' })).statusCode).toBe(400);
  });

  it('adds and removes customers from both sides; customers show their groups', async () => {
    const { customer_group: a } = await sdk.admin.customerGroup.create({ name: `A ${uniq()}` });
    const { customer_group: b } = await sdk.admin.customerGroup.create({ name: `B ${uniq()}` });
    const [c1, c2] = [await makeCustomer(), await makeCustomer()];

    await sdk.admin.customerGroup.batchCustomers(a.id, { add: [c1.id, c2.id] });
    const { customer } = await sdk.admin.customer.batchCustomerGroups(c1.id, { add: [b.id] });
    expect((customer as unknown as { groups: { id: string }[] }).groups.map((g) => g.id)).toEqual([a.id, b.id]);

    const byCustomer = await sdk.admin.customerGroup.list({ customers: [c2.id] } as never);
    expect(byCustomer.customer_groups.map((g) => g.id)).toEqual([a.id]);

    await sdk.admin.customerGroup.batchCustomers(a.id, { remove: [c1.id] });
    const again = await t.admin('GET', `/admin/customers/${c1.id}`);
    expect(again.json().customer.groups.map((g: { id: string }) => g.id)).toEqual([b.id]);
    const listed = await t.admin('GET', `/admin/customers?limit=100`);
    const row = listed.json().customers.find((c: { id: string }) => c.id === c2.id);
    expect(row.groups.map((g: { id: string }) => g.id)).toEqual([a.id]);
    // The dashboard lists a group's customers with `groups`.
    const members = await sdk.admin.customer.list({ groups: [a.id] } as never);
    expect(members.customers.map((c) => c.id)).toEqual([c2.id]);

    // An unknown customer: 404 naming it, and nothing written.
    const bad = await t.admin('POST', `/admin/customer-groups/${b.id}/customers`, { add: [c2.id, 'cus_nope'] });
    expect(statusAndBody(bad)).toMatchObject({
      status: 404,
      type: 'not_found',
      code: 'customers_not_found',
      message: 'Customer with id: cus_nope was not found',
    });
    expect((await sdk.admin.customerGroup.list({ customers: [c2.id] } as never)).customer_groups).toHaveLength(1);

    // Deleting a group lets its members go.
    await sdk.admin.customerGroup.delete(b.id);
    expect((await t.admin('GET', `/admin/customers/${c1.id}`)).json().customer.groups).toEqual([]);
  });
});
