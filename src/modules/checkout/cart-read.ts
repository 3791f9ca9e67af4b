import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { preparedRows, textArray } from '../../platform/db/prepared.ts';
import { withJsonDates } from '../../platform/db/json-rows.ts';
import {
  allColumns,
  from,
  jsonObject,
  type RawRow,
  rendered,
  type RowOf,
  selectList,
  tableAs,
} from '../../platform/db/typed-sql.ts';
import {
  CART_LINES,
  CART_METHODS,
  cartFromRow,
  type CartRow,
  type LockedCart,
  lineFromJson,
  methodFromJson,
  type ShippingMethodRow,
} from '../carts/queries.ts';
import { cartLineItems, carts, cartShippingMethods } from '../carts/tables.ts';
import { sellableVariantsOfCart, type SellableVariant } from '../carts/variant-queries.ts';
import { customers } from '../customers/tables.ts';
import type { PaymentCollectionView } from '../payments/schema.ts';
import { paymentCollections, paymentSessions } from '../payments/tables.ts';
import { PRICING_FACTS, pricingFacts, type PricingFacts } from '../cart-pricing/facts.ts';
import { productSalesChannels, products, productVariants } from '../products/tables.ts';
import { regionJson } from '../regions/region-json.ts';
import { regionFromJson, type Region } from '../regions/service.ts';
import { regionPaymentProviders, regions } from '../regions/tables.ts';
import { shippingOptions } from '../shipping-options/tables.ts';

/**
 * The store's cart is read in ONE statement with everything its view shows: the customer's
 * email, lines, shipping methods, payment collection with sessions, and region with countries.
 * A cart read is on every store call of the checkout, and on this kind of machine each round
 * trip costs more than the SQL, so this statement reads the carts, customers, payments, regions
 * (and, for checkout, products and shipping options) tables directly, read-only: each of those
 * modules owns every write. It names their columns through their drizzle tables
 * (platform/db/typed-sql.ts), so a column renamed in its tables.ts fails the type check here.
 */
export interface FullCart extends CartRow {
  customer_email: string | null;
  lines: LockedCart['lines'];
  methods: ShippingMethodRow[];
  payment_collection: PaymentCollectionView | null;
  /** Null when the cart's region was deleted since. */
  region: Region | null;
  pricing_facts: PricingFacts;
}

// The cart row is `c`, as the carts module's fragments (CART_LINES, CART_METHODS) expect.
const c = tableAs(carts, 'c');
const cu = tableAs(customers, 'cu');
const pc = tableAs(paymentCollections, 'pc');
const ps = tableAs(paymentSessions, 's');
const v = tableAs(productVariants, 'v');
const p = tableAs(products, 'p');
const sc = tableAs(productSalesChannels, 'sc');
const l = tableAs(cartLineItems, 'l');
const m = tableAs(cartShippingMethods, 'm');
const o = tableAs(shippingOptions, 'o');
const r = tableAs(regions, 'r');
const rp = tableAs(regionPaymentProviders, 'rp');

type CollectionRow = typeof paymentCollections.$inferSelect;
type SessionRow = typeof paymentSessions.$inferSelect;

const COLLECTION = sql<{ collection: RawRow<CollectionRow>; sessions: RawRow<SessionRow>[] } | null>`(select
    json_build_object('collection', to_json(${pc}), 'sessions', (select coalesce(json_agg(${ps} order by ${ps.id}), '[]'::json)
      from ${from(ps)} where ${ps.payment_collection_id} = ${pc.id}))
  from ${from(pc)} where ${pc.cart_id} = ${c.id})`;

// The same tests as adding a line (carts/variant-queries.ts): a product unpublished, deleted or
// taken out of the cart's channel since is refused at completion as it is when added.
const VARIANT_STATE = jsonObject({
  id: v.id,
  manage_inventory: v.manage_inventory,
  live: sql<boolean>`${v.deleted_at} is null and ${p.deleted_at} is null and ${p.status} = 'published'`,
  /** Its product is still in the cart's sales channel (a cart without one: always). */
  in_channel: sql<boolean>`${c.sales_channel_id} is null or exists (select 1 from ${from(sc)}
      where ${sc.product_id} = ${p.id} and ${sc.sales_channel_id} = ${c.sales_channel_id})`,
});
/** Per variant of the cart's lines: still sellable in the cart's channel? managing stock? (checkout only). */
export type VariantState = (typeof VARIANT_STATE)['_']['type'];

const VARIANT_STATES = sql<VariantState[]>`(select coalesce(json_agg(${VARIANT_STATE}), '[]'::json)
  from ${from(v)} join ${from(p)} on ${p.id} = ${v.product_id}
  where ${v.id} in (select ${l.variant_id} from ${from(l)} where ${l.cart_id} = ${c.id}))`;

// A method copies its option's amount when chosen; the option may be deleted, moved or repriced since.
const METHOD_STATE = jsonObject({
  id: m.id,
  shipping_option_id: m.shipping_option_id,
  /** Null when the option was deleted or moved to another region since it was chosen. */
  amount: sql<number | null>`case when ${o.id} is null then null else coalesce(${o.amount}, 0) end`,
});
/** Per shipping method of the cart, its option as it is now (checkout only). */
export type MethodState = (typeof METHOD_STATE)['_']['type'];

const METHOD_STATES = sql<MethodState[]>`(select coalesce(json_agg(${METHOD_STATE} order by ${m.id}), '[]'::json)
  from ${from(m)}
  left join ${from(o)} on ${o.id} = ${m.shipping_option_id} and ${o.deleted_at} is null
    and (${o.region_id} is null or ${o.region_id} = ${c.region_id})
  where ${m.cart_id} = ${c.id})`;

// Everything a cart view shows, for the cart row `c`, but its pricing facts.
const VIEW_FIELDS = {
  ...allColumns(c),
  customer_email: sql<string | null>`(select ${cu.email} from ${from(cu)}
    where ${cu.id} = ${c.customer_id} and ${cu.deleted_at} is null)`,
  lines: CART_LINES,
  methods: CART_METHODS,
  payment_collection: COLLECTION,
  region: regionJson(sql`${c.region_id}`),
};
const VIEW_COLUMNS = rendered(selectList(VIEW_FIELDS));
const CART_FIELDS = { ...VIEW_FIELDS, pricing_facts: sql<PricingFacts>`${PRICING_FACTS}` };
type FullCartRow = RowOf<typeof CART_FIELDS>;
const CART_COLUMNS = rendered(selectList(CART_FIELDS));

export async function findCart(db: Executor, id: string): Promise<FullCart | undefined> {
  const [row] = await preparedRows<FullCartRow>(db, sql`select ${CART_COLUMNS} from ${from(c)} where ${c.id} = ${id}`);
  return row ? toFullCart(row) : undefined;
}

/** A cart read whole and locked for a change of its lines, with the variants that change sells. */
export type EditableCart = FullCart & { variants: SellableVariant[] };

/**
 * Locks the cart row (a second change of the same cart waits here) and reads, in one statement,
 * everything its view shows and the sellable state of `variantIds` in the cart's currency and
 * channel: a change of lines then needs no read after its writes.
 */
export async function lockCartForEdit(
  db: Executor,
  id: string,
  variantIds: string[],
): Promise<EditableCart | undefined> {
  // The facts cover the products being added too: the view after the change prices their lines.
  // One key lookup per id (as sellable variants do): `= any(array)` planned a scan without statistics.
  const facts = pricingFacts(sql`array(select ${l.product_id} from ${from(l)} where ${l.cart_id} = ${c.id}
    union select (select ${v.product_id} from ${from(v)} where ${v.id} = x.id)
      from unnest(${textArray(variantIds)}) x(id))`);
  const [row] = await preparedRows<FullCartRow & { variants: SellableVariant[] }>(
    db,
    sql`select ${VIEW_COLUMNS}, ${facts} as pricing_facts, ${sellableVariantsOfCart(variantIds)} as variants
      from ${from(c)} where ${c.id} = ${id} for update of ${c}`,
  );
  return row ? { ...toFullCart(row), variants: row.variants } : undefined;
}

/**
 * A cart locked for checkout, with what an order is made of, and the state of its lines' variants
 * and of its methods' shipping options now: what completion checks again, in the same statement.
 */
export type CheckoutCart = LockedCart & {
  methods: ShippingMethodRow[];
  pricing_facts: PricingFacts;
  region_automatic_taxes: boolean;
  payment_collection: PaymentCollectionView | null;
  variant_states: VariantState[];
  method_states: MethodState[];
  /** The region's `payment_providers` as stored (none: only the built-in manual provider). */
  region_providers: string[];
};

const CHECKOUT_FIELDS = {
  ...allColumns(c),
  lines: CART_LINES,
  methods: CART_METHODS,
  payment_collection: COLLECTION,
  variant_states: VARIANT_STATES,
  method_states: METHOD_STATES,
  region_providers: sql<string[]>`(select coalesce(json_agg(${rp.provider_id} order by ${rp.provider_id}), '[]'::json)
    from ${from(rp)} where ${rp.region_id} = ${c.region_id})`,
  pricing_facts: sql<PricingFacts>`${PRICING_FACTS}`,
  region_automatic_taxes: sql<boolean>`coalesce((select ${r.automatic_taxes} from ${from(r)} where ${r.id} = ${c.region_id}), true)`,
};
const CHECKOUT_COLUMNS = rendered(selectList(CHECKOUT_FIELDS));

export async function lockCartForCheckout(db: Executor, id: string): Promise<CheckoutCart | undefined> {
  const [row] = await preparedRows<RowOf<typeof CHECKOUT_FIELDS>>(
    db,
    sql`select ${CHECKOUT_COLUMNS} from ${from(c)} where ${c.id} = ${id} for update of ${c}`,
  );
  if (!row) return undefined;
  return {
    ...cartFromRow(row),
    lines: row.lines.map(lineFromJson),
    methods: row.methods.map(methodFromJson),
    payment_collection: collectionFromJson(row.payment_collection),
    variant_states: row.variant_states,
    method_states: row.method_states,
    region_providers: row.region_providers,
    pricing_facts: row.pricing_facts,
    region_automatic_taxes: row.region_automatic_taxes,
  };
}

/**
 * Applies `update` (an UPDATE … RETURNING * of one cart, from the carts module's touchCart) and
 * reads the cart back in the same statement. The cart's columns come from the update's result;
 * lines, methods and the payment collection changed by earlier statements of the transaction
 * are visible as usual.
 */
export async function updateAndReadCart(db: Executor, update: SQLWrapper): Promise<FullCart> {
  // No parentheses around ${update}: drizzle puts an embedded query in parentheses itself.
  const [row] = await preparedRows<FullCartRow>(db, sql`with ${c} as ${update} select ${CART_COLUMNS} from ${c}`);
  return toFullCart(row);
}

/** The collection and its sessions as read inside JSON, dates as Date. */
function collectionFromJson(pc: FullCartRow['payment_collection']): PaymentCollectionView | null {
  if (!pc) return null;
  return {
    ...withJsonDates<CollectionRow>(pc.collection),
    payment_sessions: pc.sessions.map((s) => withJsonDates<SessionRow>(s)),
  };
}

function toFullCart(row: FullCartRow): FullCart {
  return {
    ...cartFromRow(row),
    customer_email: row.customer_email,
    lines: row.lines.map(lineFromJson),
    methods: row.methods.map(methodFromJson),
    payment_collection: collectionFromJson(row.payment_collection),
    region: regionFromJson(row.region),
    pricing_facts: row.pricing_facts,
  };
}
