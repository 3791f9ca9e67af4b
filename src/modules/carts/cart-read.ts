import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { PaymentCollectionView } from '../payments/schema.ts';
import { countryInfo } from '../regions/iso-codes.ts';
import type { Region } from '../regions/service.ts';
import type { CartRow, LineRow, ShippingMethodRow } from './queries.ts';

/**
 * A cart is read in ONE statement with everything its view shows: the customer's email, lines,
 * shipping methods, payment collection with sessions, and region with countries. A cart read is
 * on every store call of the checkout, and on this kind of machine each round trip costs more
 * than the SQL, so this statement reads the payments and regions tables directly (read-only;
 * those modules own every write) and maps the region exactly as the regions module does.
 */
export interface CartWithCustomer extends CartRow {
  customer_email: string | null;
  lines: LineRow[];
  methods: ShippingMethodRow[];
  payment_collection: PaymentCollectionView | null;
  /** Null when the cart's region was deleted since. */
  region: Region | null;
}

/** Per variant of the cart's lines: still sellable? managing stock? (checkout only). */
export interface VariantState {
  id: string;
  live: boolean;
  manage_inventory: boolean;
}

const COLLECTION = sql`(select json_build_object('collection', to_json(pc), 'sessions',
    (select coalesce(json_agg(s order by s.id), '[]'::json) from payment_sessions s where s.payment_collection_id = pc.id))
  from payment_collections pc where pc.cart_id = c.id)`;

const regionJson = (regionId: SQL) => sql`(select json_build_object('region', to_json(r), 'countries',
    (select coalesce(json_agg(rc.iso_2 order by rc.iso_2), '[]'::json) from region_countries rc where rc.region_id = r.id))
  from regions r where r.id = ${regionId} and r.deleted_at is null)`;

const VARIANT_STATES = sql`(select coalesce(json_agg(json_build_object('id', v.id, 'manage_inventory', v.manage_inventory,
    'live', v.deleted_at is null and p.deleted_at is null and p.status = 'published')), '[]'::json)
  from product_variants v join products p on p.id = v.product_id
  where v.id in (select l.variant_id from cart_line_items l where l.cart_id = c.id))`;

const LINES = sql`(select coalesce(json_agg(l order by l.id), '[]'::json) from cart_line_items l where l.cart_id = c.id)`;

// Everything a cart view shows, for the cart row aliased `c`.
const CART_COLUMNS = sql`c.*,
  (select cu.email from customers cu where cu.id = c.customer_id and cu.deleted_at is null) as customer_email,
  ${LINES} as lines,
  (select coalesce(json_agg(m order by m.id), '[]'::json) from cart_shipping_methods m where m.cart_id = c.id) as methods,
  ${COLLECTION} as payment_collection,
  ${regionJson(sql`c.region_id`)} as region`;

export async function findCart(db: Executor, id: string): Promise<CartWithCustomer | undefined> {
  const [row] = await rows<Record<string, unknown>>(db, sql`select ${CART_COLUMNS} from carts c where c.id = ${id}`);
  return row ? (toCart(row) as CartWithCustomer) : undefined;
}

/** A cart locked for a mutation, with its lines (they only ever change under this lock); the view is read after. */
export type LockedCart = CartRow & { lines: LineRow[] };

export async function lockCart(db: Executor, id: string): Promise<LockedCart | undefined> {
  const [row] = await rows<Record<string, unknown>>(db, sql`select c.*, ${LINES} as lines from carts c where c.id = ${id} for update of c`);
  return row ? (toCart(row) as LockedCart) : undefined;
}

/** A cart locked for checkout, with what an order is made of and the state of its lines' variants. */
export type CheckoutCart = LockedCart & { methods: ShippingMethodRow[]; payment_collection: PaymentCollectionView | null; variant_states: VariantState[] };

export async function lockCartForCheckout(db: Executor, id: string): Promise<CheckoutCart | undefined> {
  const [row] = await rows<Record<string, unknown>>(
    db,
    sql`select c.*, ${LINES} as lines,
          (select coalesce(json_agg(m order by m.id), '[]'::json) from cart_shipping_methods m where m.cart_id = c.id) as methods,
          ${COLLECTION} as payment_collection, ${VARIANT_STATES} as variant_states
        from carts c where c.id = ${id} for update of c`,
  );
  return row ? (toCart(row) as CheckoutCart) : undefined;
}

/**
 * Applies `update` (an UPDATE … RETURNING * of one cart) and reads the cart back in the same
 * statement. The cart's columns come from the update's result; lines, methods and the payment
 * collection changed by earlier statements of the transaction are visible as usual.
 */
export async function updateAndReadCart(db: Executor, update: SQLWrapper): Promise<CartWithCustomer> {
  // No parentheses around ${update}: drizzle puts an embedded query in parentheses itself.
  const [row] = await rows<Record<string, unknown>>(db, sql`with c as ${update} select ${CART_COLUMNS} from c`);
  return toCart(row) as CartWithCustomer;
}

/** The region a cart is created in: the given one, else the first live region by id (the store's default). */
export async function findRegionForCart(db: Executor, regionId: string | undefined): Promise<Region | null> {
  const id = regionId === undefined ? sql`(select id from regions where deleted_at is null order by id limit 1)` : sql`${regionId}`;
  const [row] = await rows<{ region: RegionJson | null }>(db, sql`select ${regionJson(id)} as region`);
  return toRegion(row.region);
}

// Rows inside JSON carry timestamps as text (with the session's offset); the drivers give Date elsewhere.
const date = (v: unknown) => (v == null ? null : v instanceof Date ? v : new Date(String(v)));
const stamped = <T extends { created_at: unknown; updated_at: unknown }>(r: T): T => ({ ...r, created_at: date(r.created_at), updated_at: date(r.updated_at) });

interface RegionJson {
  region: Region & { deleted_at?: unknown };
  countries: string[];
}

function toRegion(json: RegionJson | null): Region | null {
  if (!json) return null;
  const { deleted_at: _deleted, ...region } = json.region;
  return { ...stamped(region), countries: json.countries.map((iso) => ({ ...countryInfo(iso), region_id: region.id })) };
}

/** Maps whichever of the cart's parts the statement read. */
function toCart(r: Record<string, unknown>): Partial<CartWithCustomer> & CartRow & { variant_states?: VariantState[] } {
  const pc = r.payment_collection as { collection: PaymentCollectionView; sessions: PaymentCollectionView['payment_sessions'] } | null | undefined;
  const cart: Record<string, unknown> = {
    ...r,
    completed_at: date(r.completed_at),
    abandoned_at: date(r.abandoned_at),
    last_activity_at: date(r.last_activity_at),
    created_at: date(r.created_at),
    updated_at: date(r.updated_at),
  };
  if (r.lines) cart.lines = (r.lines as LineRow[]).map(stamped);
  if (r.methods) cart.methods = (r.methods as ShippingMethodRow[]).map(stamped);
  if (pc !== undefined) cart.payment_collection = pc ? { ...stamped(pc.collection), payment_sessions: pc.sessions.map(stamped) } : null;
  if (r.region !== undefined) cart.region = toRegion(r.region as RegionJson | null);
  return cart as unknown as CartRow;
}
