import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { preparedRows } from '../../platform/db/prepared.ts';
import { withJsonDates } from '../../platform/db/json-rows.ts';
import {
  CART_LINES,
  CART_METHODS,
  CART_ROW,
  cartFromRow,
  type CartRow,
  type LockedCart,
  type ShippingMethodRow,
} from '../carts/queries.ts';
import { sellableVariantsOfCart, type SellableVariant } from '../carts/variant-queries.ts';
import type { PaymentCollectionView } from '../payments/schema.ts';
import { PRICING_FACTS, type PricingFacts } from '../cart-pricing/facts.ts';
import { regionJson, type RegionJson } from '../regions/region-json.ts';
import { regionFromJson, type Region } from '../regions/service.ts';

/**
 * The store's cart is read in ONE statement with everything its view shows: the customer's
 * email, lines, shipping methods, payment collection with sessions, and region with countries.
 * A cart read is on every store call of the checkout, and on this kind of machine each round
 * trip costs more than the SQL, so this statement reads the carts, customers, payments, regions
 * (and, for checkout, products) tables directly, read-only: each of those modules owns every write.
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

/** Per variant of the cart's lines: still sellable in the cart's channel? managing stock? (checkout only). */
export interface VariantState {
  id: string;
  live: boolean;
  /** Its product is still in the cart's sales channel (a cart without one: always). */
  in_channel: boolean;
  manage_inventory: boolean;
}

/**
 * Per shipping method of the cart, its option as it is now (checkout only): `amount` is null when
 * the option was deleted or moved to another region since it was chosen.
 */
export interface MethodState {
  id: string;
  shipping_option_id: string;
  amount: number | null;
}

const COLLECTION = sql`(select json_build_object('collection', to_json(pc), 'sessions',
    (select coalesce(json_agg(s order by s.id), '[]'::json) from payment_sessions s where s.payment_collection_id = pc.id))
  from payment_collections pc where pc.cart_id = c.id)`;

// The same tests as adding a line (carts/variant-queries.ts): a product unpublished, deleted or
// taken out of the cart's channel since is refused at completion as it is when added.
const VARIANT_STATES = sql`(select coalesce(json_agg(json_build_object('id', v.id, 'manage_inventory', v.manage_inventory,
    'live', v.deleted_at is null and p.deleted_at is null and p.status = 'published',
    'in_channel', c.sales_channel_id is null or exists (select 1 from product_sales_channels sc
      where sc.product_id = p.id and sc.sales_channel_id = c.sales_channel_id))), '[]'::json)
  from product_variants v join products p on p.id = v.product_id
  where v.id in (select l.variant_id from cart_line_items l where l.cart_id = c.id))`;

// A method copies its option's amount when chosen; the option may be deleted, moved or repriced since.
const METHOD_STATES = sql`(select coalesce(json_agg(json_build_object('id', m.id, 'shipping_option_id', m.shipping_option_id,
    'amount', o.amount) order by m.id), '[]'::json)
  from cart_shipping_methods m
  left join shipping_options o on o.id = m.shipping_option_id and o.deleted_at is null and o.region_id = c.region_id
  where m.cart_id = c.id)`;

// Everything a cart view shows, for the cart row aliased `c`.
const CART_COLUMNS = sql`${CART_ROW},
  (select cu.email from customers cu where cu.id = c.customer_id and cu.deleted_at is null) as customer_email,
  ${CART_LINES} as lines,
  ${CART_METHODS} as methods,
  ${COLLECTION} as payment_collection,
  ${regionJson(sql`c.region_id`)} as region,
  ${PRICING_FACTS} as pricing_facts`;

export async function findCart(db: Executor, id: string): Promise<FullCart | undefined> {
  const [row] = await preparedRows<Record<string, unknown>>(
    db,
    sql`select ${CART_COLUMNS} from carts c where c.id = ${id}`,
  );
  return row ? (toCart(row) as FullCart) : undefined;
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
  const [row] = await preparedRows<Record<string, unknown>>(
    db,
    sql`select ${CART_COLUMNS}, ${sellableVariantsOfCart(variantIds)} as variants
        from carts c where c.id = ${id} for update of c`,
  );
  return row ? ({ ...toCart(row), variants: row.variants } as EditableCart) : undefined;
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

const REGION_PROVIDERS = sql`(select coalesce(json_agg(p.provider_id order by p.provider_id), '[]'::json)
  from region_payment_providers p where p.region_id = c.region_id)`;

export async function lockCartForCheckout(db: Executor, id: string): Promise<CheckoutCart | undefined> {
  const [row] = await preparedRows<Record<string, unknown>>(
    db,
    sql`select ${CART_ROW}, ${CART_LINES} as lines, ${CART_METHODS} as methods,
          ${COLLECTION} as payment_collection, ${VARIANT_STATES} as variant_states,
          ${METHOD_STATES} as method_states, ${REGION_PROVIDERS} as region_providers, ${PRICING_FACTS} as pricing_facts,
          coalesce((select r.automatic_taxes from regions r where r.id = c.region_id), true) as region_automatic_taxes
        from carts c where c.id = ${id} for update of c`,
  );
  return row
    ? ({
        ...toCart(row),
        region_providers: row.region_providers,
        region_automatic_taxes: row.region_automatic_taxes,
      } as CheckoutCart)
    : undefined;
}

/**
 * Applies `update` (an UPDATE … RETURNING * of one cart, from the carts module's touchCart) and
 * reads the cart back in the same statement. The cart's columns come from the update's result;
 * lines, methods and the payment collection changed by earlier statements of the transaction
 * are visible as usual.
 */
export async function updateAndReadCart(db: Executor, update: SQLWrapper): Promise<FullCart> {
  // No parentheses around ${update}: drizzle puts an embedded query in parentheses itself.
  const [row] = await preparedRows<Record<string, unknown>>(db, sql`with c as ${update} select ${CART_COLUMNS} from c`);
  return toCart(row) as FullCart;
}

/** Maps whichever of the cart's parts the statement read. */
function toCart(r: Record<string, unknown>): Partial<FullCart> & CartRow & { variant_states?: VariantState[] } {
  const pc = r.payment_collection as
    | { collection: PaymentCollectionView; sessions: PaymentCollectionView['payment_sessions'] }
    | null
    | undefined;
  const cart: Record<string, unknown> = cartFromRow(r);
  if (pc !== undefined)
    cart.payment_collection = pc
      ? { ...withJsonDates(pc.collection), payment_sessions: pc.sessions.map(withJsonDates) }
      : null;
  if (r.region !== undefined) cart.region = regionFromJson(r.region as RegionJson | null);
  return cart as unknown as CartRow;
}
