import { and, eq, sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import { jsonDate, withJsonDates } from '../../platform/db/json-rows.ts';
import { allColumns, from, type RawRow, type RowOf, selectList, tableAs } from '../../platform/db/typed-sql.ts';
import { cartLineItems, carts, cartShippingMethods } from './tables.ts';

export type CartRow = typeof carts.$inferSelect;
export type LineRow = typeof cartLineItems.$inferSelect;
export type ShippingMethodRow = typeof cartShippingMethods.$inferSelect;
export type CartPatch = Partial<Omit<typeof carts.$inferInsert, 'id' | 'created_at'>>;

/** The cart row of a statement that reads one cart, named `c`: other modules' fragments correlate on it. */
export const cartAs = tableAs(carts, 'c');
const l = tableAs(cartLineItems, 'l');
const m = tableAs(cartShippingMethods, 'm');

const cartColumns = allColumns(cartAs);
/**
 * The cart row's columns for the cart row `c`, spelled out: a prepared statement that read `c.*`
 * would fail from the moment a migration (another instance's, during a rolling deploy) added a
 * column, since PostgreSQL refuses a cached plan whose result changes shape.
 */
export const CART_ROW = selectList(cartColumns);
/** The cart row as a statement reading CART_ROW gives it (timestamps as text). */
export type RawCartRow = RowOf<typeof cartColumns>;

/** A cart's lines as one JSON array, for the cart row `c`. */
export const CART_LINES = sql<RawRow<LineRow>[]>`(select coalesce(json_agg(${l} order by ${l.id}), '[]'::json)
  from ${from(l)} where ${l.cart_id} = ${cartAs.id})`;
/** A cart's shipping methods as one JSON array, for the cart row `c`. */
export const CART_METHODS = sql<
  RawRow<ShippingMethodRow>[]
>`(select coalesce(json_agg(${m} order by ${m.id}), '[]'::json)
  from ${from(m)} where ${m.cart_id} = ${cartAs.id})`;

/** A cart locked for a change, with its lines (they only ever change under this lock). */
export type LockedCart = CartRow & { lines: LineRow[] };

export async function lockCart(db: Executor, id: string): Promise<LockedCart | undefined> {
  const [row] = await rows<RawCartRow & { lines: RawRow<LineRow>[] }>(
    db,
    sql`select ${CART_ROW}, ${CART_LINES} as lines from ${from(cartAs)} where ${cartAs.id} = ${id} for update of ${cartAs}`,
  );
  return row ? { ...cartFromRow(row), lines: row.lines.map(lineFromJson) } : undefined;
}

/** The cart columns of a row read with raw SQL, dates as Date. */
export function cartFromRow(r: RawCartRow): CartRow {
  return {
    ...r,
    completed_at: jsonDate(r.completed_at),
    abandoned_at: jsonDate(r.abandoned_at),
    last_activity_at: jsonDate(r.last_activity_at)!,
    tax_requested_at: jsonDate(r.tax_requested_at),
    created_at: jsonDate(r.created_at)!,
    updated_at: jsonDate(r.updated_at)!,
  };
}

/** A line or a method read inside JSON (CART_LINES, CART_METHODS), dates as Date. */
export const lineFromJson = (r: RawRow<LineRow>): LineRow => withJsonDates<LineRow>(r);
export const methodFromJson = (r: RawRow<ShippingMethodRow>): ShippingMethodRow => withJsonDates<ShippingMethodRow>(r);

const LINE_COLUMNS = sql.raw(
  'id, cart_id, variant_id, product_id, title, subtitle, thumbnail, product_title, product_handle, variant_title, variant_sku, ' +
    'unit_price, quantity, metadata, created_at, updated_at',
);
const json = (v: unknown) => (v == null ? null : JSON.stringify(v));
const ts = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The writes of a new cart and its first lines, for the caller's statement (db/one-statement.ts):
 * creating a cart is on the hot path, so it is one round trip with its event.
 */
export function newCartWrites(c: CartRow, lines: LineRow[]): SQL[] {
  const cart = sql`insert into carts (id, region_id, sales_channel_id, currency_code, email, customer_id, shipping_address, billing_address, locale, metadata,
        completed_at, abandoned_at, last_activity_at, order_id, created_at, updated_at)
      values (${c.id}, ${c.region_id}, ${c.sales_channel_id}, ${c.currency_code}, ${c.email}, ${c.customer_id}, ${json(c.shipping_address)}::jsonb,
        ${json(c.billing_address)}::jsonb, ${c.locale}, ${json(c.metadata)}::jsonb, ${ts(c.completed_at)}::timestamptz, ${ts(c.abandoned_at)}::timestamptz,
        ${ts(c.last_activity_at)}::timestamptz, ${c.order_id}, ${ts(c.created_at)}::timestamptz, ${ts(c.updated_at)}::timestamptz)`;
  return lines.length ? [cart, lineInserts(lines)] : [cart];
}

/** New lines as one write (any number of them, one statement text). */
export function lineInserts(lines: LineRow[]): SQL {
  return sql`insert into cart_line_items (${LINE_COLUMNS})
    select ${LINE_COLUMNS} from json_populate_recordset(null::cart_line_items, ${JSON.stringify(lines)}::json)`;
}

/** New quantities of existing lines of one cart, as one write. */
export function lineQuantityUpdates(cartId: string, updates: { id: string; quantity: number }[], now: Date): SQL {
  return sql`update cart_line_items l set quantity = u.quantity, updated_at = ${now.toISOString()}::timestamptz
    from json_to_recordset(${JSON.stringify(updates)}::json) as u(id text, quantity int)
    where l.cart_id = ${cartId} and l.id = u.id`;
}

/** A change of lines only: the cart row just moves `updated_at` and `last_activity_at`. */
export function cartTouch(id: string, now: Date): SQL {
  const at = now.toISOString();
  return sql`update carts set updated_at = ${at}::timestamptz, last_activity_at = ${at}::timestamptz where id = ${id}`;
}

/** Checkout placed the cart's order: the cart is completed and names it. */
export function cartCompletion(id: string, orderId: string, now: Date): SQL {
  const at = now.toISOString();
  return sql`update carts set completed_at = ${at}::timestamptz, order_id = ${orderId}, last_activity_at = ${at}::timestamptz,
    updated_at = ${at}::timestamptz where id = ${id}`;
}

/** The UPDATE … RETURNING * of one cart, not yet run: the caller embeds it in a statement that reads the cart back. */
export function cartUpdateReturning(db: Executor, id: string, patch: CartPatch) {
  return db.update(carts).set(patch).where(eq(carts.id, id)).returning();
}

export async function updateLine(
  db: Executor,
  cartId: string,
  lineId: string,
  patch: Partial<Pick<LineRow, 'quantity' | 'unit_price' | 'metadata' | 'updated_at'>>,
): Promise<void> {
  await db
    .update(cartLineItems)
    .set(patch)
    .where(and(eq(cartLineItems.cart_id, cartId), eq(cartLineItems.id, lineId)));
}

/** One line's new quantity (and metadata, when given), as one write. */
export function lineUpdate(
  cartId: string,
  lineId: string,
  patch: { quantity: number; metadata?: Record<string, unknown> | null },
  now: Date,
): SQL {
  const metadata = patch.metadata === undefined ? sql`` : sql`, metadata = ${json(patch.metadata)}::jsonb`;
  return sql`update cart_line_items set quantity = ${patch.quantity}, updated_at = ${now.toISOString()}::timestamptz${metadata}
    where cart_id = ${cartId} and id = ${lineId}`;
}

/** A shipping method repriced (its option's price moved with the cart's items), as one write. */
export function methodAmountUpdate(id: string, amount: number): SQL {
  return sql`update cart_shipping_methods set amount = ${amount} where id = ${id}`;
}

export function lineDelete(cartId: string, lineId: string): SQL {
  return sql`delete from cart_line_items where cart_id = ${cartId} and id = ${lineId}`;
}

export async function deleteShippingMethods(db: Executor, cartId: string): Promise<void> {
  await db.delete(cartShippingMethods).where(eq(cartShippingMethods.cart_id, cartId));
}

export async function insertShippingMethod(db: Executor, row: typeof cartShippingMethods.$inferInsert): Promise<void> {
  await db.insert(cartShippingMethods).values(row);
}

/**
 * Marks idle carts abandoned, at most `limit` per call. SKIP LOCKED leaves carts that another
 * instance (or a shopper's mutation) holds right now; the outer `abandoned_at is null` re-checks
 * after the lock, so however many instances run this, each cart is returned exactly once.
 */
export async function markIdleCartsAbandoned(
  db: Executor,
  idleSince: Date,
  now: Date,
  limit: number,
): Promise<string[]> {
  const found = await rows<{ id: string }>(
    db,
    sql`update carts set abandoned_at = ${now.toISOString()}::timestamptz
        where id in (
          select id from carts
          where completed_at is null and abandoned_at is null and last_activity_at <= ${idleSince.toISOString()}::timestamptz
          order by last_activity_at limit ${limit}
          for update skip locked
        ) and abandoned_at is null and completed_at is null
        returning id`,
  );
  return found.map((r) => r.id);
}
