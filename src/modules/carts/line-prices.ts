import { sql } from 'drizzle-orm';
import { type Ctx, executor, type TxCtx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { customerGroupIds } from '../customer-groups/service.ts';
import { listPriceSql, parseListPrice } from '../price-lists/store-prices.ts';
import { prices } from '../products/tables.ts';
import { sameMetadata } from './pricing.ts';
import type { LineRow } from './queries.ts';
import type { SellableVariant } from './variant-queries.ts';

/** The catalog's prices (products' table), read for a line's quantity. */
const pr = tableAs(prices, 'pr');

/**
 * A line's unit price as Medusa picks it when a line is added, its quantity changes or the cart's
 * customer changes: the price list price for the line's quantity, the cart's currency and region
 * and the customer's groups when one applies (price-lists/store-prices.ts), else the variant's own
 * price in the currency. Prices are not followed otherwise: a line keeps the price it was given.
 */

interface PricingCart {
  currency_code: string;
  region_id: string;
  customer_id: string | null;
}

/** Unit prices (minor units) of `items`, in order, in one statement; null where the variant has none. */
export async function unitPrices(
  ctx: Ctx,
  cart: PricingCart,
  items: { variant_id: string; quantity: number }[],
): Promise<(number | null)[]> {
  if (!items.length) return [];
  const groups = await customerGroupIds(ctx, cart.customer_id ?? undefined);
  const currency = sql`${cart.currency_code}::text`;
  const listed = listPriceSql(sql`x.v`, currency, sql`${cart.region_id}::text`, {
    groups,
    now: ctx.clock.now(),
    quantity: sql`x.q`,
  });
  const found = await rows<{ base: string | number | null; listed: string | null }>(
    executor(ctx),
    sql`select (select ${pr.amount} from ${from(pr)} where ${pr.variant_id} = x.v and ${pr.currency_code} = ${currency}
            and coalesce(${pr.min_quantity}, 0) <= x.q and coalesce(${pr.max_quantity}, x.q) >= x.q
          order by ${pr.amount} limit 1) as base,
          ${listed} as listed
        from unnest(${sql.param(items.map((i) => i.variant_id))}::text[], ${sql.param(items.map((i) => i.quantity))}::int[])
          with ordinality x(v, q, n)
        order by x.n`,
  );
  return found.map((r) => parseListPrice(r.listed)?.amount ?? (r.base == null ? null : Number(r.base)));
}

/** `lines` with the unit price `unitPrices` gives each (a new cart's lines, before they are written). */
export async function pricedLines<L extends { variant_id: string; quantity: number; unit_price: number }>(
  ctx: Ctx,
  cart: PricingCart,
  lines: L[],
): Promise<L[]> {
  const prices = await unitPrices(ctx, cart, lines);
  return lines.map((l, i) => (prices[i] == null ? l : { ...l, unit_price: prices[i] }));
}

/** Writes new unit prices of existing lines (a statement of its own, before the change's writes). */
async function writeUnitPrices(tctx: TxCtx, cartId: string, prices: { id: string; unit_price: number }[]) {
  if (!prices.length) return;
  await tctx.tx.execute(sql`update cart_line_items l set unit_price = u.unit_price
    from json_to_recordset(${JSON.stringify(prices)}::json) as u(id text, unit_price bigint)
    where l.cart_id = ${cartId} and l.id = u.id and l.unit_price <> u.unit_price`);
}

/**
 * Before an item is added: the price for the quantity its line will hold (a new line, or the
 * matching line's plus the item's). A matching line takes it at once; a new line takes it from
 * the variant as read (`variants`), which the add then copies. Answers both, updated.
 */
export async function priceAddition<C extends PricingCart & { id: string; lines: LineRow[] }>(
  tctx: TxCtx,
  cart: C,
  item: { variant_id: string; quantity: number; metadata?: Record<string, unknown> | null },
  variants: SellableVariant[],
): Promise<{ cart: C; variants: SellableVariant[] }> {
  const match = cart.lines.find((l) => l.variant_id === item.variant_id && sameMetadata(l.metadata, item.metadata));
  const [price] = await unitPrices(tctx, cart, [
    { variant_id: item.variant_id, quantity: (match?.quantity ?? 0) + item.quantity },
  ]);
  if (price == null) return { cart, variants }; // the add refuses an unpriced variant with Medusa's message
  if (match && match.unit_price !== price) await writeUnitPrices(tctx, cart.id, [{ id: match.id, unit_price: price }]);
  return {
    cart: { ...cart, lines: cart.lines.map((l) => (l === match ? { ...l, unit_price: price } : l)) },
    variants: variants.map((v) => (v.id === item.variant_id ? { ...v, price } : v)),
  };
}

/** Before a line's quantity changes: its price for the new quantity (none for a removal). */
export async function priceQuantityChange<C extends PricingCart & { id: string; lines: LineRow[] }>(
  tctx: TxCtx,
  cart: C,
  lineId: string,
  quantity: number,
): Promise<C> {
  const line = cart.lines.find((l) => l.id === lineId);
  if (!line || quantity === 0) return cart;
  const [price] = await unitPrices(tctx, cart, [{ variant_id: line.variant_id, quantity }]);
  if (price == null || price === line.unit_price) return cart;
  await writeUnitPrices(tctx, cart.id, [{ id: line.id, unit_price: price }]);
  return { ...cart, lines: cart.lines.map((l) => (l.id === lineId ? { ...l, unit_price: price } : l)) };
}

/** Every line priced again, as for a new customer (a sign-in, a transfer): written at once. */
export async function repriceForCustomer(
  tctx: TxCtx,
  cart: PricingCart & { id: string; lines: LineRow[] },
  customerId: string | null,
): Promise<void> {
  const prices = await unitPrices(tctx, { ...cart, customer_id: customerId }, cart.lines);
  const changed = cart.lines
    .map((l, i) => ({ id: l.id, unit_price: prices[i] }))
    .filter(
      (p, i): p is { id: string; unit_price: number } =>
        p.unit_price != null && p.unit_price !== cart.lines[i].unit_price,
    );
  await writeUnitPrices(tctx, cart.id, changed);
}
