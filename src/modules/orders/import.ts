import { sql } from 'drizzle-orm';
import { type Ctx, inTx, type TxCtx } from '../../platform/context.ts';
import { insertRows } from '../../platform/db/insert-row.ts';
import { isUniqueViolation, pgError } from '../../platform/db/pg-errors.ts';
import { textArray } from '../../platform/db/prepared.ts';
import { rows } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { toAddress } from '../carts/addresses.ts';
import { findSellableVariants, type SellableVariant } from '../carts/variant-queries.ts';
import { customerIdsByEmail, liveCustomerIds } from '../customers/queries.ts';
import { type ImportedLedger, importedLedger, writeImportedLedgers } from '../payments/imported.ts';
import { findLiveRegion } from '../regions/queries.ts';
import { findLiveSalesChannel } from '../sales-channels/queries.ts';
import { fulfillments } from './fulfillment-tables.ts';
import type { ImportedOrderInput, ImportOrdersResult } from './import-schema.ts';
import type { OrderLineRow, OrderRow, OrderShippingMethodRow } from './queries.ts';
import { orderPaymentStatus } from './statuses.ts';
import { orderLineItems, orders, orderShippingMethods } from './tables.ts';

type Ref = ImportOrdersResult['imported'][number];

/**
 * Orders placed elsewhere, written as they were (`POST /admin/orders/import`), all or none:
 * their lines, shipping, the payment's ledger and a fulfilment where they say so, at their own
 * `created_at`, under new display ids drawn in the order sent. They are history, so nothing
 * else moves: no stock is taken or reserved, no `order.placed` goes out (a customer would be
 * mailed about an order of last year), no promotion budget is spent. The order desk's counts
 * and the dashboard follow, through the triggers on `orders`. An order whose `external_id` was
 * imported before is skipped, so a migration sent again after a failure adds nothing twice.
 */
export function importOrders(ctx: Ctx, input: ImportedOrderInput[]): Promise<ImportOrdersResult> {
  const external = input.map((o) => o.external_id).filter((id): id is string => !!id);
  const seen = new Set<string>();
  for (const id of external) {
    if (seen.has(id)) throw errors.invalid('order_import_external_id_repeated', { id });
    seen.add(id);
  }
  return inTx(ctx, async (tctx) => {
    try {
      return await importInTx(tctx, input, external);
    } catch (err) {
      // Another import of the same external id committed first: sent again, this one skips it.
      if (isUniqueViolation(err) && pgError(err).constraint === 'orders_external_id_idx')
        throw errors.conflict('order_import_raced');
      throw err;
    }
  });
}

async function importInTx(tctx: TxCtx, input: ImportedOrderInput[], external: string[]): Promise<ImportOrdersResult> {
  const skipped = await importedBefore(tctx, external);
  const known = new Set(skipped.map((r) => r.external_id));
  const fresh = input.map((o, index) => ({ o, index })).filter(({ o }) => !o.external_id || !known.has(o.external_id));
  if (!fresh.length) return { imported: [], skipped };
  const refs = await references(tctx, fresh);
  const built = fresh.map(({ o }) => buildOrder(tctx, o, refs));
  const placed = await insertRows(
    tctx.tx,
    orders,
    built.map((b) => b.order),
    'id, display_id, external_id',
  );
  await insertRows(
    tctx.tx,
    orderLineItems,
    built.flatMap((b) => b.lines),
  );
  await insertRows(
    tctx.tx,
    orderShippingMethods,
    built.flatMap((b) => b.methods),
  );
  await writeImportedLedgers(
    tctx.tx,
    built.flatMap((b) => (b.ledger ? [b.ledger] : [])),
  );
  await insertRows(
    tctx.tx,
    fulfillments,
    built.flatMap((b) => (b.fulfillment ? [b.fulfillment] : [])),
  );
  return { imported: placed as Ref[], skipped };
}

async function importedBefore(tctx: TxCtx, external: string[]): Promise<Ref[]> {
  if (!external.length) return [];
  return rows<Ref>(
    tctx.tx,
    sql`select id, display_id, external_id from ${orders} where external_id = any(${textArray(external)}) order by display_id`,
  );
}

interface References {
  regions: Map<string, { currency: string }>;
  channels: Set<string>;
  customers: Set<string>;
  byEmail: Map<string, string>;
  variants: Map<string, SellableVariant>;
}

/** Everything the orders name, read once for the whole request; the first unknown one refuses it. */
async function references(tctx: TxCtx, fresh: { o: ImportedOrderInput; index: number }[]): Promise<References> {
  const distinct = <T>(xs: (T | null | undefined)[]) => [...new Set(xs.filter((x): x is T => x != null))];
  const regions = new Map<string, { currency: string }>();
  for (const id of distinct(fresh.map(({ o }) => o.region_id))) {
    const region = await findLiveRegion(tctx.tx, id);
    if (region) regions.set(id, { currency: region.currency_code });
  }
  const channels = new Set<string>();
  for (const id of distinct(fresh.map(({ o }) => o.sales_channel_id)))
    if (await findLiveSalesChannel(tctx.tx, id)) channels.add(id);
  const customers = await liveCustomerIds(tctx.tx, distinct(fresh.map(({ o }) => o.customer_id)));
  const byEmail = await customerIdsByEmail(
    tctx.tx,
    distinct(fresh.filter(({ o }) => !o.customer_id).map(({ o }) => o.email.toLowerCase())),
  );
  const variantIds = distinct(fresh.flatMap(({ o }) => o.items.map((i) => i.variant_id)));
  // Any currency: the price it reads is not used; an imported line keeps the price it was sold at.
  const variants = new Map((await findSellableVariants(tctx.tx, variantIds, 'xxx', null)).map((v) => [v.id, v]));
  for (const { o, index } of fresh) {
    const region = regions.get(o.region_id);
    if (!region) throw errors.invalid('order_import_region_not_found', { index, id: o.region_id });
    if (o.currency_code.toLowerCase() !== region.currency)
      throw errors.invalid('order_import_currency_not_region', {
        index,
        currency: o.currency_code,
        region: o.region_id,
      });
    if (o.sales_channel_id && !channels.has(o.sales_channel_id))
      throw errors.invalid('order_import_channel_not_found', { index, id: o.sales_channel_id });
    if (o.customer_id && !customers.has(o.customer_id))
      throw errors.invalid('order_import_customer_not_found', { index, id: o.customer_id });
    for (const item of o.items) {
      if (item.variant_id && !variants.has(item.variant_id))
        throw errors.invalid('order_import_variant_not_found', { index, id: item.variant_id });
      if (!item.variant_id && !item.title) throw errors.invalid('order_import_item_untitled', { index });
    }
    const { status, fulfilment, payment } = statesOf(o);
    if (status === 'canceled' && fulfilment !== 'not_fulfilled')
      throw errors.invalid('order_import_canceled_fulfilled', { index });
    if (status === 'canceled' && (payment === 'captured' || payment === 'authorized'))
      throw errors.invalid('order_import_canceled_captured', { index });
  }
  return { regions, channels, customers, byEmail, variants };
}

/** The order's statuses, defaults filled in: completed, paid in full, not fulfilled. */
const statesOf = (o: ImportedOrderInput) => ({
  status: o.status ?? 'completed',
  fulfilment: o.fulfillment_status ?? 'not_fulfilled',
  payment: o.payment_status ?? 'captured',
});

interface BuiltOrder {
  order: Omit<OrderRow, 'display_id'>;
  lines: OrderLineRow[];
  methods: OrderShippingMethodRow[];
  ledger: ImportedLedger | null;
  fulfillment: typeof fulfillments.$inferInsert | null;
}

function buildOrder(tctx: TxCtx, o: ImportedOrderInput, refs: References): BuiltOrder {
  const id = newId('order');
  const at = o.created_at ? new Date(o.created_at) : tctx.clock.now();
  const stamps = { created_at: at, updated_at: at };
  const currency = o.currency_code.toLowerCase();
  const { status, fulfilment, payment: paymentState } = statesOf(o);
  const done = fulfilment !== 'not_fulfilled';
  const shipped = fulfilment === 'shipped' || fulfilment === 'delivered';
  const lines: OrderLineRow[] = o.items.map((item) => {
    const v = item.variant_id ? refs.variants.get(item.variant_id) : undefined;
    const title = item.title ?? v?.product_title ?? '';
    return {
      id: newId('ordli'),
      order_id: id,
      variant_id: v?.id ?? null,
      product_id: v?.product_id ?? null,
      title,
      subtitle: v?.product_subtitle ?? null,
      thumbnail: v?.thumbnail ?? null,
      product_title: item.product_title ?? v?.product_title ?? title,
      product_handle: v?.product_handle ?? null,
      variant_title: item.variant_title ?? v?.title ?? '',
      variant_sku: item.sku ?? v?.sku ?? null,
      unit_price: item.unit_price,
      quantity: item.quantity,
      reserved_quantity: 0,
      fulfilled_quantity: done ? item.quantity : 0,
      shipped_quantity: shipped ? item.quantity : 0,
      returned_quantity: 0,
      pricing: null,
      metadata: item.metadata ?? null,
      ...stamps,
    };
  });
  const methods: OrderShippingMethodRow[] = (o.shipping_methods ?? []).map((m) => ({
    id: newId('ordsm'),
    order_id: id,
    shipping_option_id: null,
    name: m.name,
    amount: m.amount,
    data: null,
    pricing: null,
    ...stamps,
  }));
  const itemTotal = lines.reduce((sum, l) => sum + l.unit_price * l.quantity, 0);
  const shippingTotal = methods.reduce((sum, m) => sum + m.amount, 0);
  const total = itemTotal + shippingTotal;
  const by = tctx.actor?.id ?? null;
  const ledger =
    paymentState === 'not_paid'
      ? null
      : importedLedger({ orderId: id, currency, amount: total, state: paymentState, at, by });
  const order: Omit<OrderRow, 'display_id'> = {
    id,
    status,
    // As the order desk derives it from the ledger, so the two never disagree.
    payment_status: orderPaymentStatus(ledger ? [ledger.payment] : []),
    fulfillment_status: fulfilment,
    cart_id: null,
    is_draft_order: false,
    customer_id: o.customer_id ?? refs.byEmail.get(o.email.toLowerCase()) ?? null,
    external_id: o.external_id ?? null,
    email: o.email.toLowerCase(),
    region_id: o.region_id,
    sales_channel_id: o.sales_channel_id ?? null,
    currency_code: currency,
    shipping_address: o.shipping_address ? toAddress(o.shipping_address) : null,
    billing_address: o.billing_address ? toAddress(o.billing_address) : null,
    item_total: itemTotal,
    shipping_total: shippingTotal,
    tax_total: 0,
    discount_total: 0,
    total,
    metadata: o.metadata ?? null,
    canceled_at: status === 'canceled' ? at : null,
    ...stamps,
  };
  const fulfillment: typeof fulfillments.$inferInsert | null = done
    ? {
        id: newId('ful'),
        order_id: id,
        location_id: null,
        shipping_option_id: null,
        provider_id: null,
        data: null,
        items: lines.map((l) => ({
          id: newId('fulit'),
          line_item_id: l.id,
          title: l.title,
          sku: l.variant_sku,
          quantity: l.quantity,
        })),
        labels: [],
        stock_moves: [],
        carrier_pending: null,
        no_notification: true,
        shipped_at: shipped ? at : null,
        delivered_at: fulfilment === 'delivered' ? at : null,
        canceled_at: null,
        created_by: by,
        metadata: null,
        ...stamps,
      }
    : null;
  return { order, lines, methods, ledger, fulfillment };
}
