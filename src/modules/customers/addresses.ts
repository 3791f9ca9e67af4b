import { inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as aq from './address-queries.ts';
import type { AddressInput, AddressView } from './address-schema.ts';

/**
 * The signed-in customer's address book (`/store/customers/me/addresses`). Every call is scoped
 * by the customer id from the session, so another customer's address is simply not found.
 */

export function addressView(row: aq.AddressRow): AddressView {
  return { ...row, metadata: row.metadata ?? null };
}

/** Address books of several customers, keyed by customer id. */
export async function addressBooks(db: Executor, customerIds: string[]): Promise<Map<string, AddressView[]>> {
  const books = new Map<string, AddressView[]>();
  for (const row of await aq.listAddressesOf(db, customerIds)) {
    books.set(row.customer_id, [...(books.get(row.customer_id) ?? []), addressView(row)]);
  }
  return books;
}

const notFound = (id: string) => errors.notFound('customer_address_not_found', { id });

/** Empty strings (what a storefront form sends for a blank field) are stored as null. */
function clean(input: AddressInput): aq.AddressPatch {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined) continue;
    out[k] = v === '' ? null : k === 'country_code' && typeof v === 'string' ? v.toLowerCase() : v;
  }
  return out as aq.AddressPatch;
}

export async function listOwnAddresses(ctx: Ctx, customerId: string, page: Page) {
  const rows = page.limit === 0 ? [] : await aq.listAddressPage(ctx.db, customerId, page);
  return { addresses: rows.map(addressView), count: await aq.countAddresses(ctx.db, customerId) };
}

export async function getOwnAddress(ctx: Ctx, customerId: string, id: string): Promise<AddressView> {
  const row = await aq.findAddress(ctx.db, customerId, id);
  if (!row) throw notFound(id);
  return addressView(row);
}

/** Adds an address; a new default takes over from the old one in the same transaction. */
export async function createOwnAddress(ctx: Ctx, customerId: string, input: AddressInput): Promise<void> {
  await inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const id = newId('cuaddr');
    await takeDefaults(tctx.tx, customerId, id, input, now);
    await aq.insertAddress(tctx.tx, { ...clean(input), id, customer_id: customerId, created_at: now, updated_at: now });
  });
}

export async function updateOwnAddress(ctx: Ctx, customerId: string, id: string, input: AddressInput): Promise<void> {
  await inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    if (!(await aq.findAddress(tctx.tx, customerId, id))) throw notFound(id);
    await takeDefaults(tctx.tx, customerId, id, input, now);
    await aq.updateAddress(tctx.tx, customerId, id, { ...clean(input), updated_at: now });
  });
}

export async function deleteOwnAddress(ctx: Ctx, customerId: string, id: string): Promise<void> {
  if (!(await aq.deleteAddress(ctx.db, customerId, id))) throw notFound(id);
}

async function takeDefaults(db: Executor, customerId: string, id: string, input: AddressInput, at: Date) {
  if (input.is_default_shipping) await aq.clearDefault(db, customerId, 'is_default_shipping', id, at);
  if (input.is_default_billing) await aq.clearDefault(db, customerId, 'is_default_billing', id, at);
}
