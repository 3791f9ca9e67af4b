import type { Static } from 'typebox';
import { executor, inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/pg-errors.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import type { CreateGroupBody, GroupQuery, LinkBody, UpdateGroupBody } from './schema.ts';

export type CustomerGroup = q.GroupRow;

const notFound = (id: string) => errors.notFound('customer_group_not_found', { id });
const nameTaken = (name: string) =>
  errors.duplicate('invalid_request_error', { detail: `Customer group with name: ${name}, already exists.` });
const list = (v: string | string[] | undefined) => (v === undefined ? undefined : [v].flat());

async function guardName<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw isUniqueViolation(err) && name ? nameTaken(name) : err;
  }
}

export async function listGroups(ctx: Ctx, query: Static<typeof GroupQuery>, page: Page) {
  const filters: q.GroupFilters = {
    q: query.q || undefined,
    id: list(query.id),
    name: list(query.name),
    customer_id: list(query.customers),
  };
  const [rows, count] = await Promise.all([
    page.limit === 0 ? [] : q.listGroupRows(ctx.db, filters, page),
    q.countGroups(ctx.db, filters),
  ]);
  return { customer_groups: rows, count, ...page };
}

export async function getGroup(ctx: Ctx, id: string): Promise<CustomerGroup> {
  const row = await q.findLiveGroup(ctx.db, id);
  if (!row) throw notFound(id);
  return row;
}

export function createGroup(ctx: Ctx, input: Static<typeof CreateGroupBody>): Promise<CustomerGroup> {
  return guardName(input.name, () =>
    inTx(ctx, async (tctx) => {
      if (await q.isGroupNameTaken(tctx.tx, input.name)) throw nameTaken(input.name);
      const now = tctx.clock.now();
      const row: CustomerGroup = {
        id: newId('cusgroup'),
        name: input.name,
        metadata: input.metadata ?? null,
        created_by: tctx.actor?.id ?? null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      };
      await q.insertGroup(tctx.tx, row);
      return emitted(tctx, 'customer_group.created', row);
    }),
  );
}

export function updateGroup(ctx: Ctx, id: string, input: Static<typeof UpdateGroupBody>): Promise<CustomerGroup> {
  return guardName(input.name, () =>
    inTx(ctx, async (tctx) => {
      if (!(await q.findLiveGroup(tctx.tx, id, true))) throw notFound(id);
      if (input.name && (await q.isGroupNameTaken(tctx.tx, input.name, id))) throw nameTaken(input.name);
      const row = await q.updateGroupRow(tctx.tx, id, { ...input, updated_at: tctx.clock.now() });
      return emitted(tctx, 'customer_group.updated', row);
    }),
  );
}

export function deleteGroup(ctx: Ctx, id: string) {
  return inTx(ctx, async (tctx) => {
    if (!(await q.findLiveGroup(tctx.tx, id, true))) throw notFound(id);
    await q.softDeleteGroup(tctx.tx, id, tctx.clock.now());
    await emit(tctx, 'customer_group.deleted', { id });
    return { id, object: 'customer_group' as const, deleted: true as const };
  });
}

async function emitted(
  tctx: TxCtx,
  name: 'customer_group.created' | 'customer_group.updated',
  row: CustomerGroup,
): Promise<CustomerGroup> {
  await emit(tctx, name, { ...row });
  return row;
}

/** The ids that name no live row, listed for the 404 (every id must, or nothing is written: Medusa names them). */
function missingOf(found: Set<string>, ids: string[]): string | null {
  const missing = [...new Set(ids)].filter((id) => !found.has(id));
  return missing.length ? missing.join(', ') : null;
}

/** `POST /admin/customer-groups/{id}/customers`: adds and removes members in one transaction. */
export function linkCustomers(ctx: Ctx, groupId: string, body: Static<typeof LinkBody>): Promise<CustomerGroup> {
  return inTx(ctx, async (tctx) => {
    const group = await q.findLiveGroup(tctx.tx, groupId, true);
    if (!group) throw notFound(groupId);
    const add = body.add ?? [];
    const unknown = missingOf(await q.liveCustomerIds(tctx.tx, add), add);
    if (unknown) throw errors.notFound('customers_not_found', { ids: unknown });
    const now = tctx.clock.now();
    await q.removeMemberships(
      tctx.tx,
      (body.remove ?? []).map((customer_id) => ({ customer_group_id: groupId, customer_id })),
    );
    await q.addMemberships(
      tctx.tx,
      add.map((customer_id) => ({ customer_group_id: groupId, customer_id })),
      now,
      tctx.actor?.id ?? null,
    );
    return group;
  });
}

/** `POST /admin/customers/{id}/customer-groups`: the same link, seen from the customer. */
export function linkGroups(ctx: Ctx, customerId: string, body: Static<typeof LinkBody>): Promise<void> {
  return inTx(ctx, async (tctx) => {
    if (!(await q.liveCustomerIds(tctx.tx, [customerId])).size) {
      throw errors.notFound('customer_not_found', { id: customerId });
    }
    const add = body.add ?? [];
    const unknown = missingOf(await q.liveGroupIds(tctx.tx, add), add);
    if (unknown) throw errors.notFound('customer_groups_not_found', { ids: unknown });
    await q.removeMemberships(
      tctx.tx,
      (body.remove ?? []).map((customer_group_id) => ({ customer_group_id, customer_id: customerId })),
    );
    await q.addMemberships(
      tctx.tx,
      add.map((customer_group_id) => ({ customer_group_id, customer_id: customerId })),
      tctx.clock.now(),
      tctx.actor?.id ?? null,
    );
  });
}

/** Adds each customer's `groups` (one query for the whole page), as Medusa's admin shows them. */
export async function withGroups<C extends { id: string }>(
  ctx: Ctx,
  customers: C[],
): Promise<(C & { groups: CustomerGroup[] })[]> {
  const byCustomer = await q.groupsOfCustomers(
    ctx.db,
    customers.map((c) => c.id),
  );
  return customers.map((c) => ({ ...c, groups: byCustomer.get(c.id) ?? [] }));
}

/** The signed-in customer's group ids, sorted (the price context of store reads and carts). */
export const customerGroupIds = (ctx: Ctx, customerId: string | undefined): Promise<string[]> =>
  customerId ? q.groupIdsOf(executor(ctx), customerId) : Promise.resolve([]);
