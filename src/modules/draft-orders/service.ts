import type { Ctx, TxCtx } from '../../platform/context.ts';
import { writeTogether } from '../../platform/db/one-statement.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { toAddress } from '../carts/addresses.ts';
import { insufficientInventory, variantCopy } from '../carts/pricing.ts';
import { findSellableVariants, type SellableVariant } from '../carts/variant-queries.ts';
import { isStockShort, reservationParts } from '../checkout/inventory-queries.ts';
import { promotionsByIds } from '../cart-pricing/facts.ts';
import { findLiveCustomer } from '../customers/queries.ts';
import { promotionUsageWrites } from '../promotions/budget.ts';
import { dec } from '../totals/charge-totals.ts';
import { capture, orderPayments } from '../payments/ledger.ts';
import { authorizedCollectionInsert, paymentInsert, sessionInsert } from '../payments/queries.ts';
import { SYSTEM_PROVIDER } from '../payments/schema.ts';
import { findLiveRegion } from '../regions/queries.ts';
import { findLiveSalesChannel } from '../sales-channels/queries.ts';
import { findLiveOption } from '../shipping-options/queries.ts';
import { confirmChange, openChange } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import * as dq from '../orders/desk-queries.ts';
import { followDifference } from '../orders/difference-collections.ts';
import { settle } from '../orders/desk.ts';
import { unmovedQuantities } from '../orders/line-value.ts';
import { inDraftTx, onLockedDraft } from './draft-lock.ts';
import type { AdminOrderView } from '../orders/desk-schema.ts';
import { orderDetail, orderDetails } from '../orders/desk-view.ts';
import type { OrderLineRow, OrderRow, OrderShippingMethodRow } from '../orders/queries.ts';
import { repriceDraft } from './pricing.ts';
import { addCodes } from './promotions.ts';
import * as q from './queries.ts';
import type { CreateDraftOrderInput, DraftItem, DraftOrderQueryInput, UpdateDraftOrderInput } from './schema.ts';

/**
 * Draft orders (Medusa's `/admin/draft-orders`): an order the operator builds for a customer or
 * an email, kept in the orders table with status `draft` and numbered on its own. It holds no
 * stock and no payment until it is converted: then it takes the next order number, reserves its
 * stock through checkout's reservation SQL and is placed paid (the manual provider's capture).
 */

const list = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : ([v].flat() as T[]));

export async function listDrafts(ctx: Ctx, query: DraftOrderQueryInput, page: Page) {
  const filters: dq.OrderFilters = {
    is_draft_order: true,
    customer_id: list(query.customer_id),
    region_id: list(query.region_id),
    sales_channel_id: list(query.sales_channel_id),
    q: query.q?.trim() || undefined,
  };
  const order = query.order ?? '-created_at';
  const field = order.replace(/^-/, '');
  if (!['id', 'display_id', 'created_at', 'updated_at', 'total', 'email'].includes(field))
    throw errors.invalid('order_sort_field_invalid', { field });
  const sort = { field: field as dq.OrderSort['field'], descending: order.startsWith('-') };
  const rows = await dq.listOrderRows(ctx.db, filters, sort, page);
  return { draft_orders: await orderDetails(ctx.db, rows), count: await dq.countOrderRows(ctx.db, filters) };
}

export async function getDraft(ctx: Ctx, id: string): Promise<AdminOrderView> {
  const row = await dq.findOrderRow(ctx.db, id);
  if (!row?.is_draft_order) throw errors.notFound('draft_order_not_found', { id });
  return orderDetail(ctx.db, row);
}

/** The variants of `items` sellable in the draft's currency (and channel), by id; a missing one is refused. */
export async function draftVariants(
  tctx: TxCtx,
  order: Pick<OrderRow, 'currency_code' | 'sales_channel_id'>,
  items: DraftItem[],
): Promise<Map<string, SellableVariant>> {
  const ids = [...new Set(items.map((i) => i.variant_id).filter((v): v is string => !!v))];
  const found = new Map(
    (await findSellableVariants(tctx.tx, ids, order.currency_code, order.sales_channel_id)).map((v) => [v.id, v]),
  );
  for (const id of ids) if (!found.get(id)?.live) throw errors.notFound('variant_not_found', { id });
  return found;
}

/** A line of a draft: from a variant (its price unless one is given) or custom (a title and a price). */
export function draftLine(
  order: Pick<OrderRow, 'id' | 'currency_code'>,
  item: DraftItem,
  variants: Map<string, SellableVariant>,
  now: Date,
): OrderLineRow {
  const base = {
    id: newId('ordli'),
    order_id: order.id,
    quantity: item.quantity,
    pricing: null,
    ...unmovedQuantities,
    metadata: item.metadata ?? null,
    created_at: now,
    updated_at: now,
  };
  if (!item.variant_id) {
    if (!item.title || item.unit_price == null) throw errors.invalid('draft_custom_item_incomplete');
    return {
      ...base,
      variant_id: null,
      product_id: null,
      title: item.title,
      subtitle: null,
      thumbnail: null,
      product_title: item.title,
      product_handle: null,
      variant_title: '',
      variant_sku: item.sku ?? null,
      unit_price: item.unit_price,
    };
  }
  const v = variants.get(item.variant_id)!;
  const unitPrice = item.unit_price ?? v.price;
  if (unitPrice === null) throw errors.invalid('order_variant_unpriced', { id: v.id, currency: order.currency_code });
  return {
    ...base,
    ...variantCopy(v),
    title: item.title ?? v.product_title,
    unit_price: unitPrice,
  };
}

/** A shipping method from an option of the draft's region: the option's price unless an amount is given. */
export async function draftMethod(
  tctx: TxCtx,
  order: Pick<OrderRow, 'id' | 'region_id'>,
  input: { shipping_option_id: string; name?: string; amount?: number | null; data?: Record<string, unknown> },
): Promise<OrderShippingMethodRow> {
  const option = await findLiveOption(tctx.tx, input.shipping_option_id);
  if (!option) throw errors.notFound('shipping_option_not_found', { id: input.shipping_option_id });
  if (option.region_id !== order.region_id)
    throw errors.invalid('draft_shipping_option_outside_region', { id: option.id });
  // An option of the fulfilment model keeps its prices per currency and condition, not one flat
  // amount: a draft takes the flat one or the operator's.
  const amount = input.amount ?? option.amount;
  if (amount === null) throw errors.invalid('draft_shipping_option_unpriced', { id: option.id });
  const now = tctx.clock.now();
  return {
    id: newId('ordsm'),
    order_id: order.id,
    shipping_option_id: option.id,
    name: input.name ?? option.name,
    amount,
    data: input.data ?? null,
    pricing: null,
    created_at: now,
    updated_at: now,
  };
}

async function customerOf(tctx: TxCtx, id: string) {
  const customer = await findLiveCustomer(tctx.tx, id);
  if (!customer) throw errors.notFound('order_customer_not_found', { id });
  return customer;
}

async function channelOf(tctx: TxCtx, id: string | null | undefined): Promise<string | null> {
  if (!id) return null;
  if (!(await findLiveSalesChannel(tctx.tx, id))) throw errors.notFound('draft_sales_channel_not_found', { id });
  return id;
}

export function createDraft(ctx: Ctx, input: CreateDraftOrderInput): Promise<AdminOrderView> {
  // Named once: a run again for the tax provider's answer asks it about the same draft.
  const id = newId('order');
  return inDraftTx(ctx, async (tctx) => {
    const region = await findLiveRegion(tctx.tx, input.region_id);
    if (!region) throw errors.notFound('draft_region_not_found', { id: input.region_id });
    if (input.currency_code && input.currency_code.toLowerCase() !== region.currency_code)
      throw errors.invalid('draft_currency_not_region', { currency: input.currency_code, region: region.id });
    const customer = input.customer_id ? await customerOf(tctx, input.customer_id) : null;
    const email = input.email ?? customer?.email;
    if (!email) throw errors.invalid('draft_email_required');
    const now = tctx.clock.now();
    const draft = await q.insertDraft(tctx.tx, {
      id,
      status: 'draft',
      payment_status: 'not_paid',
      fulfillment_status: 'not_fulfilled',
      cart_id: null,
      is_draft_order: true,
      customer_id: customer?.id ?? null,
      external_id: null,
      email: email.toLowerCase(),
      region_id: region.id,
      sales_channel_id: await channelOf(tctx, input.sales_channel_id),
      currency_code: region.currency_code,
      shipping_address: input.shipping_address ? toAddress(input.shipping_address) : null,
      billing_address: input.billing_address ? toAddress(input.billing_address) : null,
      item_total: 0,
      shipping_total: 0,
      tax_total: 0,
      discount_total: 0,
      total: 0,
      metadata: input.metadata ?? null,
      canceled_at: null,
      created_at: now,
      updated_at: now,
    });
    const items = input.items ?? [];
    const variants = await draftVariants(tctx, draft, items);
    await q.insertLines(
      tctx.tx,
      items.map((i) => draftLine(draft, i, variants, now)),
    );
    const methods: OrderShippingMethodRow[] = [];
    for (const m of input.shipping_methods ?? []) methods.push(await draftMethod(tctx, draft, m));
    await q.insertMethods(tctx.tx, methods);
    // Codes given at creation are a first edit, confirmed at once: the change log stays their record.
    if (input.promo_codes?.length) {
      const change = await openChange(tctx, draft, 'edit', { description: 'Promotion codes given at creation' });
      await addCodes(tctx, draft, change, input.promo_codes);
      await confirmChange(tctx, draft, change, async () => {});
    }
    return orderDetail(tctx.tx, await repriceDraft(tctx, draft.id));
  });
}

export function updateDraft(ctx: Ctx, id: string, input: UpdateDraftOrderInput): Promise<AdminOrderView> {
  return onLockedDraft(ctx, id, async (tctx, order) => {
    const customer = input.customer_id ? await customerOf(tctx, input.customer_id) : null;
    const { internal_note: _note, ...rest } = input;
    const row = await q.updateDraft(tctx.tx, order.id, {
      ...(rest.email !== undefined && { email: rest.email.toLowerCase() }),
      ...(customer && { customer_id: customer.id }),
      ...(rest.sales_channel_id !== undefined && { sales_channel_id: await channelOf(tctx, rest.sales_channel_id) }),
      ...(rest.shipping_address && { shipping_address: toAddress(rest.shipping_address) }),
      ...(rest.billing_address && { billing_address: toAddress(rest.billing_address) }),
      ...(rest.metadata !== undefined && { metadata: rest.metadata }),
      updated_at: tctx.clock.now(),
    });
    // Taxes follow the address, customer-group promotions the customer.
    const repriced = rest.shipping_address || customer ? await repriceDraft(tctx, row.id) : row;
    return orderDetail(tctx.tx, repriced);
  });
}

export function deleteDraft(ctx: Ctx, id: string): Promise<void> {
  return onLockedDraft(ctx, id, (tctx, order) => q.deleteDraft(tctx.tx, order.id));
}

/** Reserves the stock of the lines whose variants manage it, as checkout does; short: the whole conversion is refused. */
async function reserveLines(tctx: TxCtx, order: OrderRow, lines: OrderLineRow[]): Promise<void> {
  const ids = [...new Set(lines.map((l) => l.variant_id).filter((v): v is string => !!v))];
  const variants = await findSellableVariants(tctx.tx, ids, order.currency_code, order.sales_channel_id);
  const gone = ids.filter((id) => !variants.find((v) => v.id === id)?.live);
  if (gone.length) throw errors.invalid('draft_variants_unavailable', { ids: gone.join(', ') });
  const managed = new Set(variants.filter((v) => v.manage_inventory).map((v) => v.id));
  const held = lines.flatMap((l) =>
    l.variant_id && managed.has(l.variant_id) ? [{ id: l.id, variant_id: l.variant_id, quantity: l.quantity }] : [],
  );
  if (!held.length) return;
  await writeTogether(tctx.tx, [...reservationParts(held, order.sales_channel_id, tctx.clock.now())]).catch(
    (err: unknown) => {
      throw isStockShort(err) ? insufficientInventory() : err;
    },
  );
  const now = tctx.clock.now();
  for (const l of held) await dq.updateLineRow(tctx.tx, l.id, { reserved_quantity: l.quantity, updated_at: now });
}

/**
 * The promotions the draft's lines and methods were discounted by are used by the order, as a
 * placed cart's are: usage rows, and campaign budgets moved within their limits (a budget used up
 * since the code was added refuses the conversion, with nothing written).
 */
async function usePromotions(
  tctx: TxCtx,
  orderId: string,
  lines: OrderLineRow[],
  methods: OrderShippingMethodRow[],
): Promise<void> {
  const adjustments = [...lines, ...methods].flatMap((c) =>
    (c.pricing?.adjustments ?? []).map((a) => ({ promotion_id: a.promotion_id, amount: dec(a.amount) })),
  );
  const used = await promotionsByIds(tctx.tx, [...new Set(adjustments.map((a) => a.promotion_id))]);
  const parts = promotionUsageWrites(orderId, used, adjustments, tctx.clock.now());
  if (parts.length) await writeTogether(tctx.tx, parts);
}

/** Paid in full by the operator: a manual-provider payment of the total, captured at once (Medusa's mark as paid). */
async function markPaid(tctx: TxCtx, order: OrderRow): Promise<void> {
  const now = tctx.clock.now();
  const collection = newId('pay_col');
  const session = newId('payses');
  const payment = newId('pay');
  await writeTogether(tctx.tx, [
    // The order's own collection (a draft has no cart), as a difference collection is.
    authorizedCollectionInsert({
      id: collection,
      cartId: null,
      orderId: order.id,
      currency: order.currency_code,
      amount: order.total,
      now,
    }),
    sessionInsert({
      id: session,
      payment_collection_id: collection,
      provider_id: SYSTEM_PROVIDER,
      currency_code: order.currency_code,
      amount: order.total,
      status: 'authorized',
      data: {},
      created_at: now,
      updated_at: now,
    }),
    paymentInsert({
      id: payment,
      order_id: order.id,
      payment_collection_id: collection,
      payment_session_id: session,
      provider_id: SYSTEM_PROVIDER,
      amount: order.total,
      currency_code: order.currency_code,
      data: {},
      now,
    }),
  ]);
  const [row] = await orderPayments(tctx.tx, order.id);
  if (order.total > 0) await capture(tctx, row);
}

/**
 * `POST /admin/draft-orders/{id}/convert-to-order`: refused, with nothing written, while an edit
 * is open, without items, or when stock is short. Marked paid, a manual payment of the total is
 * captured; otherwise the order awaits payment with one unpaid collection of its total.
 */
export function convertDraft(ctx: Ctx, id: string, opts: { markAsPaid: boolean }): Promise<AdminOrderView> {
  return onLockedDraft(ctx, id, async (tctx, draft) => {
    const open = await cq.openChangeOf(tctx.tx, draft.id);
    if (open) throw errors.notAllowed('draft_edit_active', { id: draft.id, change: open.id });
    const lines = await dq.listLinesOf(tctx.tx, [draft.id]);
    if (!lines.length) throw errors.invalid('draft_has_no_items', { id: draft.id });
    await reserveLines(tctx, draft, lines);
    await usePromotions(tctx, draft.id, lines, await dq.listMethodsOf(tctx.tx, [draft.id]));
    const order = await q.placeDraft(tctx.tx, draft.id, tctx.clock.now());
    // Edits made to the draft are its history; the order's own money starts here.
    await q.restartSummary(tctx.tx, order.id, order.total, order.updated_at);
    if (opts.markAsPaid) {
      await markPaid(tctx, order);
      return orderDetail(tctx.tx, await settle(tctx, order, { paymentsMoved: true }));
    }
    // Awaiting payment: the whole total is owed, as one unpaid collection the customer pays
    // (the store's payment sessions on it) or the desk marks as paid.
    const settled = await settle(tctx, order);
    await followDifference(tctx, settled);
    return orderDetail(tctx.tx, settled);
  });
}
