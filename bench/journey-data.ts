import { call, expectOk } from './lib.ts';
import type { Shop } from './journey-calls.ts';
import { percentile } from './measure.ts';

/**
 * The journey bench's data, made the way a shop makes it: through the HTTP API only (never SQL).
 * A catalog of N products spread over C categories and two collections (POST /admin/products/batch,
 * 100 a request), a shipping option, and, for the order desk, M orders placed through the store
 * API, five a customer, so 1,000,000 orders bring 200,000 customers (placeOrders).
 */

type Headers = Record<string, string>;

export async function adminLogin(base: string, email: string, password: string): Promise<Headers> {
  const { token } = await expectOk(call(base, 'POST', '/auth/user/emailpass', {}, { email, password }));
  return { authorization: `Bearer ${token}` };
}

/** In parallel `concurrency` workers over 0..count-1, reporting every `every`. */
export async function inParallel(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
  label = '',
  every = 0,
): Promise<void> {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, Math.max(count, 1)) }, async () => {
      while (next < count) {
        const i = next++;
        await work(i);
        done++;
        if (every && done % every === 0) console.error(`  … ${done} ${label}`);
      }
    }),
  );
}

export interface SeedOpts {
  products: number;
  categories: number;
  /** `batch`: POST /admin/products/batch, 100 a request; `import`: CSV through /admin/products/import. */
  mode: 'batch' | 'import';
  concurrency: number;
}

/**
 * Emporium's shop: region (EUR; de, fr), a flat shipping option, `categories` categories, two
 * collections and `products` products (two variants each, large stock), each in one category
 * (product i in category i mod C) and every other one in a collection. Resumable: what is there
 * (found by name, handle, count) is kept, so a grown shop is seeded once and reused (`--reuse`),
 * and a larger size adds to a smaller one.
 */
export async function prepareEmporium(base: string, admin: Headers, key: string, opts: SeedOpts): Promise<void> {
  const basics = await shopBasics(base, admin);
  const categoryIds = await ensureCategories(base, admin, opts.categories);
  const store = { 'x-publishable-api-key': key };
  const have = (await expectOk(call(base, 'GET', '/store/products?limit=1&fields=id', store))).count as number;
  if (have >= opts.products) return;
  const product = (i: number): ProductSeed => ({
    i,
    category: categoryIds.length ? categoryIds[i % categoryIds.length] : undefined,
    collection: i % 2 === 0 ? basics.collections[(i / 2) % 2] : undefined,
    channel: basics.channel,
  });
  if (opts.mode === 'import') await importProducts(base, admin, have, opts.products, product);
  else await batchProducts(base, admin, store, have, opts.products, opts.concurrency, product);
}

interface ProductSeed {
  i: number;
  category?: string;
  collection?: string;
  channel: string;
}

const sizes = ['S', 'M'];
const amountOf = (i: number, k: number) => 1000 + (i % 90) * 100 + k * 500;

/** Region, shipping option, channel, collections: found again by name on a reused database. */
async function shopBasics(base: string, admin: Headers) {
  const get = (url: string) => expectOk(call(base, 'GET', url, admin));
  let region = (await get('/admin/regions?limit=100')).regions.find((r: { name: string }) => r.name === 'Europe');
  if (!region)
    ({ region } = await expectOk(
      call(base, 'POST', '/admin/regions', admin, { name: 'Europe', currency_code: 'eur', countries: ['de', 'fr'] }),
    ));
  const options = (await get(`/admin/shipping-options?limit=100`)).shipping_options as { name: string }[];
  if (!options.some((o) => o.name === 'Standard Shipping'))
    await expectOk(
      call(base, 'POST', '/admin/shipping-options', admin, {
        name: 'Standard Shipping',
        region_id: region.id,
        amount: 500,
      }),
    );
  const channel = (await get('/admin/sales-channels')).sales_channels[0].id as string;
  const existing = (await get('/admin/collections?limit=100')).collections as { id: string; title: string }[];
  const collections: string[] = [];
  for (const title of ['Latest Drops', 'Weekly Picks']) {
    const found = existing.find((c) => c.title === title);
    collections.push(
      found?.id ?? (await expectOk(call(base, 'POST', '/admin/collections', admin, { title }))).collection.id,
    );
  }
  return { regionId: region.id as string, channel, collections };
}

/** Categories `category-0` … `category-(count-1)`, the missing ones made; their ids in that order. */
async function ensureCategories(base: string, admin: Headers, count: number): Promise<string[]> {
  const byHandle = new Map<string, string>();
  for (let offset = 0; ; offset += 100) {
    const page = await expectOk(
      call(base, 'GET', `/admin/product-categories?limit=100&offset=${offset}&fields=id,handle`, admin),
    );
    for (const c of page.product_categories as { id: string; handle: string }[]) byHandle.set(c.handle, c.id);
    if (offset + 100 >= page.count) break;
  }
  const ids: string[] = new Array(count);
  await inParallel(count, 4, async (i) => {
    const handle = `category-${i}`;
    ids[i] =
      byHandle.get(handle) ??
      (
        await expectOk(
          call(base, 'POST', '/admin/product-categories', admin, {
            name: `Category ${i}`,
            handle,
            is_active: true,
            is_internal: false,
          }),
        )
      ).product_category.id;
  });
  return ids;
}

/**
 * Products `from`..`to`-1 in batches of 100, `concurrency` at a time. Batches are all or nothing,
 * so on a reused database a batch whose first product exists is skipped.
 */
async function batchProducts(
  base: string,
  admin: Headers,
  store: Headers,
  from: number,
  to: number,
  concurrency: number,
  seed: (i: number) => ProductSeed,
): Promise<void> {
  const first = Math.floor(from / 100);
  const batches = Math.ceil(to / 100) - first;
  await inParallel(
    batches,
    concurrency,
    async (k) => {
      const b = first + k;
      if (from > 0) {
        const found = await expectOk(call(base, 'GET', `/store/products?handle=journey-${b * 100}&fields=id`, store));
        if (found.count > 0) return;
      }
      const create = [];
      for (let i = b * 100; i < Math.min(to, (b + 1) * 100); i++) {
        const p = seed(i);
        create.push({
          title: `Journey product ${i}`,
          handle: `journey-${i}`,
          status: 'published',
          sales_channels: [{ id: p.channel }],
          categories: p.category ? [{ id: p.category }] : [],
          ...(p.collection ? { collection_id: p.collection } : {}),
          options: [{ title: 'Size', values: sizes }],
          variants: sizes.map((size, v) => ({
            title: size,
            sku: `JOURNEY-${i}-${size}`,
            options: { Size: size },
            manage_inventory: true,
            inventory_quantity: 1_000_000,
            prices: [{ currency_code: 'eur', amount: amountOf(i, v) }],
          })),
        });
      }
      await expectOk(call(base, 'POST', '/admin/products/batch', admin, { create }));
    },
    'batches of 100 products',
    Math.max(1, Math.floor(batches / 10)),
  );
}

/** Products per import file: a job of its own, so a stopped seeding loses at most one file. */
const IMPORT_CHUNK = 5000;

/**
 * Products `from`..`to`-1 as CSV files of IMPORT_CHUNK products (Medusa's columns) through
 * `POST /admin/products/import`, confirmed, each job awaited. The import matches products by
 * handle, so the file a stopped run was in is simply imported again.
 */
async function importProducts(
  base: string,
  admin: Headers,
  from: number,
  to: number,
  seed: (i: number) => ProductSeed,
): Promise<void> {
  for (let start = Math.floor(from / IMPORT_CHUNK) * IMPORT_CHUNK; start < to; start += IMPORT_CHUNK) {
    const end = Math.min(to, start + IMPORT_CHUNK);
    const csv = journeyCsv(start, end, seed);
    const began = performance.now();
    const form = new FormData();
    form.append('file', new File([csv], `journey-${start}.csv`, { type: 'text/csv' }));
    const res = await fetch(`${base}/admin/products/import`, { method: 'POST', headers: admin, body: form });
    if (res.status !== 202) throw new Error(`import answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
    const { transaction_id, summary } = await res.json();
    if (summary.rows_with_errors) throw new Error(`import preview: ${JSON.stringify(summary).slice(0, 500)}`);
    const confirmed = await call(base, 'POST', `/admin/products/import/${transaction_id}/confirm`, admin);
    if (confirmed.status !== 202) throw new Error(`import confirm answered ${confirmed.status}`);
    for (;;) {
      const { job } = await expectOk(call(base, 'GET', `/admin/jobs/${transaction_id}`, admin));
      if (job.status === 'failed') throw new Error(`import job failed: ${JSON.stringify(job.error).slice(0, 500)}`);
      if (job.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    console.error(`  … ${end} products (${((performance.now() - began) / 1000).toFixed(1)} s for this file)`);
  }
}

/** Products `from`..`to`-1 as a product import file: two rows (sizes S and M) a product. */
export function journeyCsv(from: number, to: number, seed: (i: number) => ProductSeed): string {
  const header = [
    'Product Handle',
    'Product Title',
    'Product Status',
    'Product Collection Id',
    'Product Category 1',
    'Product Sales Channel 1',
    'Variant Title',
    'Variant Sku',
    'Variant Manage Inventory',
    'Variant Inventory Quantity',
    'Variant Price EUR',
    'Variant Option 1 Name',
    'Variant Option 1 Value',
  ];
  const lines = [header.join(',')];
  for (let i = from; i < to; i++) {
    const p = seed(i);
    for (const [v, size] of sizes.entries())
      lines.push(
        [
          `journey-${i}`,
          `Journey product ${i}`,
          'published',
          p.collection ?? '',
          p.category ?? '',
          p.channel,
          size,
          `JOURNEY-${i}-${size}`,
          'TRUE',
          '1000000',
          (amountOf(i, v) / 100).toFixed(2),
          'Size',
          size,
        ].join(','),
      );
  }
  return lines.join('\n');
}

/**
 * Medusa's peer: it was seeded with products but no categories; make `categories` of them (once,
 * by handle) and put its products in them round robin, through its admin API.
 */
export async function prepareMedusaCategories(base: string, admin: Headers, key: string, count: number) {
  const store = { 'x-publishable-api-key': key };
  const have = await expectOk(call(base, 'GET', '/store/product-categories?limit=1000&fields=id,handle', store));
  if (have.product_categories.some((c: { handle: string }) => c.handle === 'journey-category-0')) return;
  const ids = await allProductIds(base, store);
  for (let c = 0; c < count; c++) {
    const { product_category } = await expectOk(
      call(base, 'POST', '/admin/product-categories', admin, {
        name: `Journey category ${c}`,
        handle: `journey-category-${c}`,
        is_active: true,
        is_internal: false,
      }),
    );
    const add = ids.filter((_, i) => i % count === c);
    for (let i = 0; i < add.length; i += 100)
      await expectOk(
        call(base, 'POST', `/admin/product-categories/${product_category.id}/products`, admin, {
          add: add.slice(i, i + 100),
        }),
      );
  }
}

async function allProductIds(base: string, store: Headers): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const { products, count } = await expectOk(
      call(base, 'GET', `/store/products?limit=100&offset=${offset}&fields=id`, store),
    );
    ids.push(...products.map((p: { id: string }) => p.id));
    if (offset + 100 >= count) return ids;
  }
}

/** What shoppers walk, read from the store API (the same on both systems). */
export async function discover(base: string, key: string, maxHandles = 2000): Promise<Shop> {
  const store = { 'x-publishable-api-key': key };
  const { regions } = await expectOk(call(base, 'GET', '/store/regions', store));
  const region = regions.find((r: { countries: { iso_2: string }[] }) => r.countries.some((c) => c.iso_2 === 'de'));
  if (!region) throw new Error(`${base}: no region with Germany`);
  // Handles from pages spread over the whole catalog (not its first pages only).
  const first = await expectOk(call(base, 'GET', '/store/products?limit=100&offset=0&fields=handle', store));
  const count = first.count as number;
  const handles: string[] = first.products.map((p: { handle: string }) => p.handle);
  const pages = Math.min(Math.ceil(maxHandles / 100), Math.ceil(count / 100));
  for (let k = 1; k < pages; k++) {
    const offset = Math.floor((k * count) / pages / 100) * 100;
    const page = await expectOk(call(base, 'GET', `/store/products?limit=100&offset=${offset}&fields=handle`, store));
    handles.push(...page.products.map((p: { handle: string }) => p.handle));
  }
  const { product_categories } = await expectOk(
    call(base, 'GET', '/store/product-categories?limit=1000&fields=id,handle', store),
  );
  // Spread: product handles taken in a stride over the catalog, not its first page only.
  return {
    base,
    key,
    regionId: region.id,
    country: 'de',
    handles,
    categories: product_categories.map((c: { id: string; handle: string }) => ({ id: c.id, handle: c.handle })),
    products: count,
  };
}

/** One customer in this many has a login (registered, signed in): the rest are made by the admin, without one. */
export const LOGIN_EVERY = 1000;

/** Customer c's email: its orders are placed with it (not the `desk-<order>@` of seedings before, so none is met again). */
const customerEmail = (c: number) => `desk-c${c}@example.com`;

/** The first 100 products' variants with their price in the shop's region: the lines the order book is made of. */
async function storeVariants(shop: Shop): Promise<{ id: string; price: number }[]> {
  const store = { 'x-publishable-api-key': shop.key };
  const { products } = await expectOk(
    call(shop.base, 'GET', `/store/products?limit=100&region_id=${shop.regionId}`, store),
  );
  return products.flatMap((p: { variants: { id: string; calculated_price: { calculated_amount: number } }[] }) =>
    p.variants.map((v) => ({ id: v.id, price: v.calculated_price.calculated_amount })),
  );
}

/** Customer c's address, on every order of theirs. */
const customerAddress = (shop: Shop, c: number) => ({
  first_name: `First${c}`,
  last_name: `Last${c}`,
  address_1: `${1 + (c % 200)} Journey Street`,
  city: 'Berlin',
  postal_code: String(10_000 + (c % 90_000)),
  country_code: shop.country,
});

/**
 * Orders `from`..`to`-1 through the store API, `concurrency` at a time, each in two calls: a cart
 * created with its line, email and addresses, then completed. Order i is customer floor(i/5)'s,
 * so 1,000,000 orders bring 200,000 customers with five orders each; the customer is made at its
 * first order. Most customers are the admin's (`POST /admin/customers`, no password: a KDF hash
 * per customer made a signed-up customer cost as much as ten orders), and their orders are guest
 * checkouts with the customer's email (our checkout links no guest customer: docs/checkout.md);
 * one customer in LOGIN_EVERY registers and signs in once and places its orders signed in, so
 * `customer_id` and the account pages have data. The desk moves some orders on (every tenth
 * captured, every fiftieth canceled) so its filters have something to tell apart. A stopped run
 * starts again from the count of orders there (`from`); the first customers after it are looked
 * up by email before being made, and a login that exists signs in instead of registering.
 */
export async function placeOrders(
  shop: Shop,
  admin: Headers,
  from: number,
  to: number,
  concurrency: number,
): Promise<number> {
  const store = { 'x-publishable-api-key': shop.key };
  const variants = (await storeVariants(shop)).map((v) => v.id);
  const logins = new Map<number, Promise<Headers>>();
  const signedIn = (c: number) => {
    const known = logins.get(c);
    if (known) return known;
    const headers = loginCustomer(shop, customerEmail(c), c);
    logins.set(c, headers);
    return headers;
  };
  // Customers made before the stop, whose orders were not all placed: found, not made twice.
  const unsure = from + 5 * concurrency;
  const started = performance.now();
  await inParallel(
    to - from,
    concurrency,
    async (k) => {
      const i = from + k;
      const c = Math.floor(i / 5);
      const email = customerEmail(c);
      let headers: Headers = store;
      if (c % LOGIN_EVERY === 0) headers = { ...store, ...(await signedIn(c)) };
      else if (i % 5 === 0) await adminCustomer(shop.base, admin, email, c, i < unsure);
      const address = customerAddress(shop, c);
      const { cart } = await expectOk(
        call(shop.base, 'POST', '/store/carts', headers, {
          region_id: shop.regionId,
          email,
          shipping_address: address,
          billing_address: address,
          items: [{ variant_id: variants[i % variants.length], quantity: 1 + (i % 3) }],
        }),
      );
      const done = await expectOk(call(shop.base, 'POST', `/store/carts/${cart.id}/complete`, headers, {}));
      if (done.type !== 'order') throw new Error(`order ${i}: ${JSON.stringify(done).slice(0, 300)}`);
      if (i % 50 === 3) await expectOk(call(shop.base, 'POST', `/admin/orders/${done.order.id}/cancel`, admin));
      else if (i % 10 === 1)
        await expectOk(call(shop.base, 'POST', `/admin/orders/${done.order.id}/capture`, admin, {}));
    },
    'orders',
    Math.max(1, Math.floor((to - from) / 20)),
  );
  const s = (performance.now() - started) / 1000;
  console.error(`  ${to - from} orders in ${s.toFixed(0)} s (seeding, not a figure)`);
  return s;
}

/** Orders one `POST /admin/orders/import` carries (the route's most). */
const IMPORT_PAGE = 1000;

/**
 * The same order book as placeOrders (order i is customer floor(i/5)'s, one line of 1-3 units,
 * every tenth captured, every fiftieth canceled, the rest pending and authorized; one customer in
 * LOGIN_EVERY with a login), written through the order import (`POST /admin/orders/import`,
 * pages of 1,000) instead of checkout: a million orders in minutes instead of hours. The
 * customers are made first (the admin's, or registered), and the import gives each order to the
 * customer of its email. Each order's `external_id` is `desk-<i>`, so a run stopped halfway
 * imports its last page again without doubling it. Orders made so carry no cart, no payment
 * session and no stock reservation, which no desk call reads.
 */
export async function importOrderHistory(
  shop: Shop,
  admin: Headers,
  from: number,
  to: number,
  concurrency: number,
): Promise<number> {
  const variants = await storeVariants(shop);
  const { region } = await expectOk(call(shop.base, 'GET', `/admin/regions/${shop.regionId}`, admin));
  const { stores } = await expectOk(call(shop.base, 'GET', '/admin/stores', admin));
  const channel: string = stores[0].default_sales_channel_id;
  const unsure = from + IMPORT_PAGE;
  const started = performance.now();
  const first = Math.floor(from / IMPORT_PAGE);
  const pages = Math.ceil(to / IMPORT_PAGE) - first;
  await inParallel(
    pages,
    Math.max(1, Math.floor(concurrency / 4)),
    async (k) => {
      const start = Math.max(from, (first + k) * IMPORT_PAGE);
      const end = Math.min(to, (first + k + 1) * IMPORT_PAGE);
      // The page's new customers, made before its orders so the import finds them by email.
      const customers: number[] = [];
      for (let i = start; i < end; i++) if (i % 5 === 0) customers.push(i / 5);
      await inParallel(customers.length, 4, async (j) => {
        const c = customers[j];
        if (c % LOGIN_EVERY === 0) await loginCustomer(shop, customerEmail(c), c);
        else await adminCustomer(shop.base, admin, customerEmail(c), c, c * 5 < unsure);
      });
      const orders = [];
      for (let i = start; i < end; i++) {
        const c = Math.floor(i / 5);
        const v = variants[i % variants.length];
        const address = customerAddress(shop, c);
        const canceled = i % 50 === 3;
        orders.push({
          external_id: `desk-${i}`,
          email: customerEmail(c),
          region_id: shop.regionId,
          currency_code: region.currency_code,
          sales_channel_id: channel,
          status: canceled ? 'canceled' : 'pending',
          payment_status: canceled ? 'canceled' : i % 10 === 1 ? 'captured' : 'authorized',
          shipping_address: address,
          billing_address: address,
          items: [{ variant_id: v.id, quantity: 1 + (i % 3), unit_price: v.price }],
        });
      }
      await expectOk(call(shop.base, 'POST', '/admin/orders/import', admin, { orders }));
    },
    'pages of orders',
    Math.max(1, Math.floor(pages / 20)),
  );
  const s = (performance.now() - started) / 1000;
  console.error(`  ${to - from} orders imported in ${s.toFixed(0)} s (seeding, not a figure)`);
  return s;
}

/** Customer c made by the admin (no login); with `lookFirst`, only when no customer has its email yet. */
async function adminCustomer(base: string, admin: Headers, email: string, c: number, lookFirst: boolean) {
  if (lookFirst) {
    const found = await expectOk(
      call(base, 'GET', `/admin/customers?limit=1&email=${encodeURIComponent(email)}`, admin),
    );
    if (found.count > 0) return;
  }
  await expectOk(
    call(base, 'POST', '/admin/customers', admin, { email, first_name: `First${c}`, last_name: `Last${c}` }),
  );
}

/** A signed-in customer's headers: registered and made, or (a resumed run) signed in again. */
async function loginCustomer(shop: Shop, email: string, c: number): Promise<Headers> {
  const password = 'desk-password-1';
  const store = { 'x-publishable-api-key': shop.key };
  const reg = await call(shop.base, 'POST', '/auth/customer/emailpass/register', {}, { email, password });
  const first =
    reg.status === 200
      ? reg.json.token
      : (await expectOk(call(shop.base, 'POST', '/auth/customer/emailpass', {}, { email, password }))).token;
  const made = await call(
    shop.base,
    'POST',
    '/store/customers',
    { ...store, authorization: `Bearer ${first}` },
    { email, first_name: `First${c}`, last_name: `Last${c}` },
  );
  // Refused only when the login already has its customer (a resumed run).
  if (made.status !== 200 && reg.status === 200) throw new Error(`customer ${c}: ${JSON.stringify(made.json)}`);
  const login = await expectOk(call(shop.base, 'POST', '/auth/customer/emailpass', {}, { email, password }));
  return { authorization: `Bearer ${login.token}` };
}

/**
 * The order desk, each call kind `times` times in a row (pages of their own where the call has
 * pages): p50/p99 per kind. The lists and filters are the spec's (`/admin/orders`).
 */
export async function measureDesk(base: string, admin: Headers, times: number) {
  const get = (url: string) => expectOk(call(base, 'GET', url, admin));
  const sample = (await get('/admin/orders?limit=1&order=-created_at')).orders[0];
  if (!sample) throw new Error('no orders to measure the desk with');
  // A customer with a login: its orders carry its id (the admin's customers' orders are guests').
  const customers = (await get('/admin/customers?limit=1&has_account=true')).customers;
  const since = new Date(Date.parse(sample.created_at) - 86_400_000).toISOString();
  const kinds: Record<string, (i: number) => string> = {
    'orders (newest first)': (i) => `/admin/orders?limit=15&offset=${15 * i}&order=-created_at`,
    'orders status': (i) => `/admin/orders?limit=15&offset=${15 * i}&status=pending`,
    'orders payment_status': (i) => `/admin/orders?limit=15&offset=${15 * i}&payment_status=authorized`,
    'orders fulfillment_status': (i) => `/admin/orders?limit=15&offset=${15 * i}&fulfillment_status=not_fulfilled`,
    'orders region_id': (i) => `/admin/orders?limit=15&offset=${15 * i}&region_id=${sample.region_id}`,
    'orders sales_channel_id': (i) =>
      `/admin/orders?limit=15&offset=${15 * i}&sales_channel_id=${sample.sales_channel_id}`,
    'orders customer_id': () =>
      `/admin/orders?limit=15&customer_id=${customers[0]?.id ?? sample.customer_id ?? 'cus_none'}`,
    'orders email': () => `/admin/orders?limit=15&email=${encodeURIComponent(sample.email)}`,
    'orders created_at': (i) =>
      `/admin/orders?limit=15&offset=${15 * i}&${encodeURIComponent('created_at[gte]')}=${encodeURIComponent(since)}`,
    'orders q (email part)': (i) => `/admin/orders?limit=15&q=desk-c${i}@`,
    'orders q (display id)': () => `/admin/orders?limit=15&q=${sample.display_id}`,
    'order page': () => `/admin/orders/${sample.id}`,
    'customers q': (i) => `/admin/customers?limit=50&q=first${i}`,
    dashboard: () => '/admin/dashboard',
  };
  const out: Record<string, { 'p50 ms': number; 'p99 ms': number }> = {};
  for (const [kind, url] of Object.entries(kinds)) {
    const ms: number[] = [];
    for (let i = 0; i < times; i++) {
      const start = performance.now();
      await get(url(i));
      ms.push(performance.now() - start);
    }
    ms.sort((a, b) => a - b);
    out[kind] = { 'p50 ms': +percentile(ms, 50).toFixed(2), 'p99 ms': +percentile(ms, 99).toFixed(2) };
  }
  return out;
}

/** The shop's publishable key, from the admin API (a reused database printed it long ago). */
export async function publishableKey(base: string, admin: Headers): Promise<string> {
  const { api_keys } = await expectOk(call(base, 'GET', '/admin/api-keys?type=publishable&limit=1', admin));
  if (!api_keys[0]) throw new Error('no publishable key');
  return api_keys[0].token;
}
