import { call } from './lib.ts';

/**
 * One shopper's walk through Medusa's Next.js starter, as the backend sees it: the starter's own
 * calls with their query strings and `fields` expressions (docs/storefront.md, the list),
 * in page order. Each call is timed under its kind; the same code drives Emporium and Medusa.
 */

export const PRODUCT_FIELDS =
  '*variants.calculated_price,+variants.inventory_quantity,*variants.images,+metadata,+tags,';
export const CART_FIELDS =
  '*items, *region, *items.product, *items.variant, *items.thumbnail, *items.metadata, +items.total, *promotions, +shipping_methods.name';
export const ORDER_FIELDS = '*payment_collections.payments,*items,*items.metadata,*items.variant,*items.product';
export const ORDER_LIST_FIELDS = '*items,+items.metadata,*items.variant,*items.product';
const CATEGORY_TREE_FIELDS = '*category_children, *products, *parent_category, *parent_category.parent_category';

/** The calls whose answers the journey reads (tokens, variants, ids); the others are received, not parsed. */
const READ = new Set([
  'signup',
  'signin',
  'product',
  'cart create',
  'shipping options',
  'payment collection',
  'complete',
]);

/** What a run's shoppers share: the target and the shop's pages to spread them over. */
export interface Shop {
  base: string;
  key: string;
  regionId: string;
  country: string;
  /** Handles and category (id, handle) pairs: shopper n walks page n, so neighbours never share one. */
  handles: string[];
  categories: { id: string; handle: string }[];
  products: number;
}

/** Per call kind, the milliseconds each call took; statuses other than 2xx are counted apart. */
export class Timings {
  readonly ms = new Map<string, number[]>();
  failures: string[] = [];

  add(kind: string, ms: number): void {
    let list = this.ms.get(kind);
    if (!list) {
      list = [];
      this.ms.set(kind, list);
    }
    list.push(ms);
  }
}

/** Query string as the SDK writes it (qs: brackets encoded, values encoded). */
export function qs(params: Record<string, string | number | undefined>): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

const address = (country: string) => ({
  first_name: 'Grace',
  last_name: 'Hopper',
  address_1: 'Unter den Linden 1',
  address_2: '',
  company: '',
  postal_code: '10117',
  city: 'Berlin',
  country_code: country,
  province: '',
  phone: '+49 30 1234567',
});

/**
 * Shopper `n`'s journey. Every fifth shopper signs up and in first, and reads its account's
 * orders at the end. Throws on any answer that is not 2xx (the run counts it and goes on).
 */
export async function journey(shop: Shop, n: number, t: Timings, password: string): Promise<void> {
  let auth: Record<string, string> = {};
  const store = () => ({ 'x-publishable-api-key': shop.key, ...auth });
  // What the journey does not read is received whole and not parsed: at 100,000 products the home
  // page's two menus are 44 MB of JSON, and parsing them in the load generator, which shares the
  // cores with the server, measured the load generator.
  const timed = async (kind: string, method: string, url: string, body?: unknown) => {
    const start = performance.now();
    const res = await call(shop.base, method, url, store(), body, { read: READ.has(kind) });
    t.add(kind, performance.now() - start);
    if (res.status < 200 || res.status > 299)
      throw new Error(`${kind}: ${method} ${url} → ${res.status} ${JSON.stringify(res.json).slice(0, 300)}`);
    return res.json;
  };
  const signed = n % 5 === 4;
  if (signed) {
    const email = `journey-${process.pid}-${n}-${Date.now()}@example.com`;
    const reg = await timed('signup', 'POST', '/auth/customer/emailpass/register', { email, password });
    auth = { authorization: `Bearer ${reg.token}` };
    await timed('signup', 'POST', '/store/customers', { email, first_name: 'Grace', last_name: 'Hopper' });
    const login = await timed('signin', 'POST', '/auth/customer/emailpass', { email, password });
    auth = { authorization: `Bearer ${login.token}` };
  }
  const r = shop.regionId;
  // Home: the menus (categories tree, collections), the regions, the grid's handles (a page of its own).
  const handlesPage = (n * 100) % Math.max(100, shop.products);
  await timed(
    'home categories',
    'GET',
    `/store/product-categories?${qs({ fields: CATEGORY_TREE_FIELDS, limit: 100 })}`,
  );
  await timed('home regions', 'GET', '/store/regions');
  await timed('home collections', 'GET', `/store/collections?${qs({ fields: '*products', limit: 100, offset: 0 })}`);
  await timed(
    'home handles',
    'GET',
    `/store/products?${qs({ limit: 100, offset: handlesPage, region_id: r, fields: 'handle' })}`,
  );
  // A category page: the category by handle, then its products, oldest first.
  const category = shop.categories[n % shop.categories.length];
  if (category) {
    await timed(
      'category',
      'GET',
      `/store/product-categories?${qs({ fields: '*category_children, *products', handle: category.handle })}`,
    );
    await timed(
      'category products',
      'GET',
      `/store/products?${qs({ limit: 12, offset: 0, region_id: r, fields: PRODUCT_FIELDS, 'category_id[0]': category.id, order: 'created_at' })}`,
    );
  }
  // Two product pages by handle; the first variant of each goes to the cart.
  const variants: string[] = [];
  for (const k of [0, 1]) {
    const handle = shop.handles[(2 * n + k) % shop.handles.length];
    const { products } = await timed(
      'product',
      'GET',
      `/store/products?${qs({ limit: 12, offset: 0, region_id: r, fields: PRODUCT_FIELDS, handle })}`,
    );
    if (!products[0]) throw new Error(`product ${handle} not found`);
    variants.push(products[0].variants[0].id);
  }
  const { cart } = await timed('cart create', 'POST', '/store/carts', { region_id: r });
  for (const variant_id of variants)
    await timed('cart line', 'POST', `/store/carts/${cart.id}/line-items`, { variant_id, quantity: 1 });
  await timed('cart read', 'GET', `/store/carts/${cart.id}?${qs({ fields: CART_FIELDS })}`);
  const where = address(shop.country);
  await timed('cart addresses', 'POST', `/store/carts/${cart.id}`, {
    email: signed ? undefined : `guest-${n}@example.com`,
    shipping_address: where,
    billing_address: where,
  });
  const { shipping_options } = await timed(
    'shipping options',
    'GET',
    `/store/shipping-options?${qs({ cart_id: cart.id })}`,
  );
  await timed('shipping method', 'POST', `/store/carts/${cart.id}/shipping-methods`, {
    option_id: shipping_options[0].id,
  });
  await timed('payment providers', 'GET', `/store/payment-providers?${qs({ region_id: r })}`);
  const { payment_collection } = await timed('payment collection', 'POST', '/store/payment-collections', {
    cart_id: cart.id,
  });
  await timed('payment session', 'POST', `/store/payment-collections/${payment_collection.id}/payment-sessions`, {
    provider_id: 'pp_system_default',
  });
  const done = await timed('complete', 'POST', `/store/carts/${cart.id}/complete`, {});
  if (done.type !== 'order') throw new Error(`complete: ${JSON.stringify(done).slice(0, 300)}`);
  await timed('order read', 'GET', `/store/orders/${done.order.id}?${qs({ fields: ORDER_FIELDS })}`);
  if (signed) {
    await timed('account me', 'GET', `/store/customers/me?${qs({ fields: '*orders' })}`);
    await timed(
      'account orders',
      'GET',
      `/store/orders?${qs({ limit: 10, offset: 0, order: '-created_at', fields: ORDER_LIST_FIELDS })}`,
    );
  }
}
