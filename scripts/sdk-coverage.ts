/**
 * The SDK coverage meter: how much of Medusa's JS SDK (`@medusajs/js-sdk`, the version in
 * package-lock.json) works against Emporium.
 *
 *   npm run sdk:coverage                                              # PGlite in memory
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> npm run sdk:coverage   # database <db>_w0, dropped and made
 *   npm run sdk:coverage -- --no-write                               # print only, leave docs/sdk-coverage.md
 *
 * It starts the app as the tests do (test/app.ts), seeds a small shop through the API (region,
 * channels, catalog, a customer with an address, placed orders, a return, claim, exchange and
 * order edit, a draft order, stock location, fulfillment set, return reason, price list,
 * promotion, …), then finds every method of the SDK's `admin`, `store` and `auth` namespaces by
 * reflection over an SDK instance and calls each once, with ids from the seeded data where a
 * parameter names one and `{}` bodies otherwise. Reads go first, then writes, then the calls that
 * destroy (delete, cancel, complete, …), orders last, so the data later calls need is still there.
 *
 * Each call is classified from the HTTP answers it caused (global fetch is wrapped):
 *   works         2xx
 *   route-exists  4xx from a real route: a validation or state refusal, or a resource not found
 *                 (our 404s carry an error `code`)
 *   missing       404 `route_not_found`: no route matched ("Route GET /x not found")
 *   error         5xx, a network failure or a timeout
 * Writes docs/sdk-coverage.md and prints `works N / route-exists M / missing K / error E of TOTAL`.
 * Exits 1 if any call got a 5xx (a bug: a 5xx is never a correct answer to a client's input).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import MedusaSdk from '@medusajs/js-sdk';
import { startTestApp, type TestApp } from '../test/app.ts';

const Medusa = ((MedusaSdk as unknown as { default?: unknown }).default ?? MedusaSdk) as typeof MedusaSdk.default;
type Sdk = InstanceType<typeof Medusa>;
type Fn = (...args: unknown[]) => unknown;

const NAMESPACES = ['admin', 'store', 'auth'] as const;
const CALL_TIMEOUT_MS = 15_000;
const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const write = !process.argv.includes('--no-write');

type Status = 'works' | 'route-exists' | 'missing' | 'error';
interface Hit {
  method: string;
  url: string;
  status: number;
  body: string;
}
interface Result {
  group: string;
  method: string;
  status: Status;
  http: string;
  note: string;
}

// ---------------------------------------------------------------- recording the HTTP answers

let hits: Hit[] = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = input instanceof Request ? input.url : String(input);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  try {
    const res = await realFetch(input, init);
    // Only error bodies are read (small JSON); a 2xx may be a stream.
    const body =
      res.status >= 400
        ? await res
            .clone()
            .text()
            .catch(() => '')
        : '';
    hits.push({ method, url, status: res.status, body: body.slice(0, 400) });
    return res;
  } catch (err) {
    hits.push({ method, url, status: 0, body: String(err) });
    throw err;
  }
};

// ---------------------------------------------------------------- seeding

// biome-ignore lint/suspicious/noExplicitAny: API answers are read loosely, field by field, with ?.
type Json = Record<string, any>;
const ids: Record<string, string | undefined> = {};
const warnings: string[] = [];
/** Seeding calls answered with a 5xx: bugs too, and they fail the run as the measured calls do. */
const seedErrors: string[] = [];

async function seed(t: TestApp): Promise<{ customerToken: string; email: string; password: string }> {
  const call = async (
    who: 'admin' | 'store',
    method: string,
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Json | undefined> => {
    const res =
      who === 'admin'
        ? await t.admin(method, url, body as never, { headers })
        : await t.store(method, url, body as never, { headers });
    if (res.statusCode >= 500) seedErrors.push(`${method} ${url} → ${res.statusCode} ${res.body.slice(0, 300)}`);
    if (res.statusCode >= 300) {
      warnings.push(`seed ${method} ${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      return undefined;
    }
    return res.json();
  };
  const admin = (method: string, url: string, body?: unknown) => call('admin', method, url, body);

  const channels = await admin('GET', '/admin/sales-channels');
  const channelId = channels?.sales_channels?.[0]?.id as string;
  ids.salesChannel = (
    await admin('POST', '/admin/sales-channels', { name: 'SDK coverage channel' })
  )?.sales_channel?.id;
  ids.region = (
    await admin('POST', '/admin/regions', { name: 'Europe', currency_code: 'eur', countries: ['de', 'fr'] })
  )?.region?.id;
  ids.productCollection = (await admin('POST', '/admin/collections', { title: 'Summer' }))?.collection?.id;
  ids.productCategory = (await admin('POST', '/admin/product-categories', { name: 'Shirts' }))?.product_category?.id;
  ids.productType = (await admin('POST', '/admin/product-types', { value: 'Apparel' }))?.product_type?.id;
  ids.productTag = (await admin('POST', '/admin/product-tags', { value: 'cotton' }))?.product_tag?.id;

  const variant = (size: string) => ({
    title: size,
    sku: `SDK-${size}`,
    options: { Size: size },
    prices: [{ currency_code: 'eur', amount: 1500 }],
    inventory_quantity: 50,
    manage_inventory: true,
  });
  const rich = {
    title: 'Coverage Shirt',
    status: 'published',
    thumbnail: 'https://img.example/shirt.png',
    sales_channels: [{ id: channelId }],
    options: [{ title: 'Size', values: ['M', 'L'] }],
    variants: [variant('M'), variant('L')],
    ...(ids.productCollection ? { collection_id: ids.productCollection } : {}),
    ...(ids.productCategory ? { categories: [{ id: ids.productCategory }] } : {}),
    ...(ids.productType ? { type_id: ids.productType } : {}),
    ...(ids.productTag ? { tags: [{ id: ids.productTag }] } : {}),
  };
  let product = (await admin('POST', '/admin/products', rich))?.product;
  product ??= (
    await admin('POST', '/admin/products', {
      title: 'Coverage Shirt',
      status: 'published',
      sales_channels: [{ id: channelId }],
      variants: [{ title: 'M', prices: [{ currency_code: 'eur', amount: 1500 }], inventory_quantity: 50 }],
    })
  )?.product;
  if (!product) throw new Error(`cannot seed a product:\n${warnings.join('\n')}`);
  ids.product = product.id;
  ids.productVariant = product.variants[0].id;
  ids.variant = product.variants[0].id;
  ids.productOption = product.options?.[0]?.id;
  ids.optionValue = product.options?.[0]?.values?.[0]?.id;
  ids.image = product.images?.[0]?.id;
  const variantId = ids.variant as string;

  // A customer, signed up as a storefront does, with an address.
  const email = 'sdk-coverage@example.com';
  const password = 'coverage-password-1';
  const registered = await t.inject({
    method: 'POST',
    url: '/auth/customer/emailpass/register',
    payload: { email, password },
  });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const created = await call(
    'store',
    'POST',
    '/store/customers',
    { first_name: 'Ada', last_name: 'Lovelace' },
    {
      ...bearer(registered.json().token),
    },
  );
  ids.customer = created?.customer?.id;
  const login = await t.inject({ method: 'POST', url: '/auth/customer/emailpass', payload: { email, password } });
  const customerToken = login.json().token as string;
  const address = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    address_1: 'Hauptstr. 1',
    city: 'Berlin',
    postal_code: '10115',
    country_code: 'de',
  };
  const withAddress = await call('store', 'POST', '/store/customers/me/addresses', address, bearer(customerToken));
  ids.address = withAddress?.customer?.addresses?.[0]?.id;
  ids.customerGroup = (await admin('POST', '/admin/customer-groups', { name: 'VIP' }))?.customer_group?.id;

  // Orders, placed through the store checkout: one each for the desk, a return, a claim, an exchange, an edit.
  const placeOrder = async () => {
    const cart = await call(
      'store',
      'POST',
      '/store/carts',
      { email, region_id: ids.region, items: [{ variant_id: variantId, quantity: 2 }], shipping_address: address },
      bearer(customerToken),
    );
    if (!cart) return undefined;
    const done = await call('store', 'POST', `/store/carts/${cart.cart.id}/complete`, undefined, bearer(customerToken));
    return done?.order as Json | undefined;
  };
  const order = await placeOrder();
  if (!order) throw new Error(`cannot seed an order:\n${warnings.join('\n')}`);
  ids.order = order.id;
  ids.orderItem = order.items?.[0]?.id;
  ids.paymentCollection = order.payment_collections?.[0]?.id;
  ids.payment = order.payment_collections?.[0]?.payments?.[0]?.id;
  const fulfilled = await admin('POST', `/admin/orders/${order.id}/fulfillments`, {
    items: [{ id: ids.orderItem, quantity: 1 }],
  });
  ids.fulfillment = fulfilled?.order?.fulfillments?.[0]?.id;

  const forReturn = await placeOrder();
  ids.return = (await admin('POST', '/admin/returns', { order_id: forReturn?.id }))?.return?.id;
  const forClaim = await placeOrder();
  ids.claim = (await admin('POST', '/admin/claims', { order_id: forClaim?.id, type: 'refund' }))?.claim?.id;
  const forExchange = await placeOrder();
  ids.exchange = (await admin('POST', '/admin/exchanges', { order_id: forExchange?.id }))?.exchange?.id;
  const forEdit = await placeOrder();
  ids.orderEdit = (await admin('POST', '/admin/order-edits', { order_id: forEdit?.id }))?.order_change?.id
    ? forEdit?.id
    : undefined;

  // An open cart for the store.cart methods.
  const cart = await call(
    'store',
    'POST',
    '/store/carts',
    { email, region_id: ids.region, items: [{ variant_id: variantId, quantity: 1 }] },
    bearer(customerToken),
  );
  ids.cart = cart?.cart?.id;
  ids.lineItem = cart?.cart?.items?.[0]?.id;

  ids.draftOrder = (
    await admin('POST', '/admin/draft-orders', {
      email,
      region_id: ids.region,
      items: [{ variant_id: variantId, quantity: 1 }],
    })
  )?.draft_order?.id;
  ids.returnReason = (
    await admin('POST', '/admin/return-reasons', { value: 'too_big', label: 'Too big' })
  )?.return_reason?.id;
  ids.refundReason = (
    await admin('POST', '/admin/refund-reasons', { label: 'Goodwill', code: 'goodwill' })
  )?.refund_reason?.id;
  ids.stockLocation = (await admin('POST', '/admin/stock-locations', { name: 'Warehouse' }))?.stock_location?.id;
  ids.location = ids.stockLocation;
  const withSet = await admin('POST', `/admin/stock-locations/${ids.stockLocation}/fulfillment-sets`, {
    name: 'Shipping from warehouse',
    type: 'shipping',
  });
  ids.fulfillmentSet = withSet?.stock_location?.fulfillment_sets?.[0]?.id;
  const withZone = await admin('POST', `/admin/fulfillment-sets/${ids.fulfillmentSet}/service-zones`, {
    name: 'Germany',
    geo_zones: [{ type: 'country', country_code: 'de' }],
  });
  ids.serviceZone = withZone?.fulfillment_set?.service_zones?.[0]?.id;
  ids.shippingProfile = (
    await admin('POST', '/admin/shipping-profiles', { name: 'Parcels', type: 'default' })
  )?.shipping_profile?.id;
  ids.priceList = (
    await admin('POST', '/admin/price-lists', { title: 'Winter sale', description: 'Sale', type: 'sale', prices: [] })
  )?.price_list?.id;
  ids.campaign = (
    await admin('POST', '/admin/campaigns', { name: 'Launch', campaign_identifier: 'launch' })
  )?.campaign?.id;
  ids.promotion = (
    await admin('POST', '/admin/promotions', {
      code: 'SDK10',
      type: 'standard',
      status: 'active',
      application_method: { type: 'percentage', target_type: 'order', value: 10, allocation: 'across' },
    })
  )?.promotion?.id;
  ids.taxRegion = (await admin('POST', '/admin/tax-regions', { country_code: 'de' }))?.tax_region?.id;
  ids.apiKey = (await admin('POST', '/admin/api-keys', { title: 'Coverage key', type: 'publishable' }))?.api_key?.id;
  ids.invite = (await admin('POST', '/admin/invites', { email: 'invitee@example.com' }))?.invite?.id;
  ids.shippingOption = (
    await admin('POST', '/admin/shipping-options', { name: 'Standard', region_id: ids.region, amount: 5 })
  )?.shipping_option?.id;
  ids.taxRate = (
    await admin('POST', '/admin/tax-rates', { tax_region_id: ids.taxRegion, name: 'Reduced', code: 'reduced', rate: 7 })
  )?.tax_rate?.id;
  ids.pricePreference = (
    await admin('POST', '/admin/price-preferences', {
      attribute: 'currency_code',
      value: 'usd',
      is_tax_inclusive: true,
    })
  )?.price_preference?.id;
  // The store namespace names some resources as the admin's does not.
  ids.collection = ids.productCollection;
  ids.category = ids.productCategory;
  const users = await admin('GET', '/admin/users');
  ids.user = (users?.users as Json[] | undefined)?.find((u) => u.email !== 'admin@example.com')?.id;
  return { customerToken, email, password };
}

/** For every admin namespace with a `list`, the first listed id when seeding left none (shipping options, stores, …). */
async function discover(sdk: Sdk) {
  for (const [key, value] of Object.entries(sdk.admin)) {
    if (ids[key] || key === 'client' || typeof (value as Json)?.list !== 'function') continue;
    try {
      const answer = (await (value as Json).list()) as Json;
      const list = Object.values(answer).find((v) => Array.isArray(v)) as Json[] | undefined;
      if (list?.[0]?.id) ids[key] = list[0].id;
    } catch {
      // not listable here: the call itself is measured later
    }
  }
}

// ---------------------------------------------------------------- enumeration

interface Method {
  namespace: (typeof NAMESPACES)[number];
  group: string;
  name: string;
  params: string[];
  target: Json;
}

function methodsOf(obj: Json): string[] {
  const names = new Set<string>();
  for (let p = Object.getPrototypeOf(obj); p && p !== Object.prototype; p = Object.getPrototypeOf(p))
    for (const k of Object.getOwnPropertyNames(p))
      if (k !== 'constructor' && typeof obj[k] === 'function') names.add(k);
  for (const k of Object.keys(obj)) if (typeof obj[k] === 'function') names.add(k);
  // `name_` methods are the SDK's internals (auth.setToken_), not API calls.
  return [...names].filter((n) => !n.endsWith('_'));
}

function paramsOf(fn: Fn): string[] {
  const m = /^[^(]*\(([^)]*)\)/.exec(fn.toString());
  return m
    ? m[1]
        .split(',')
        .map((s) => s.trim().split(/\s*=/)[0])
        .filter(Boolean)
    : [];
}

function enumerate(sdk: Sdk): Method[] {
  const out: Method[] = [];
  for (const namespace of NAMESPACES) {
    const ns = sdk[namespace] as unknown as Json;
    for (const name of methodsOf(ns))
      out.push({ namespace, group: namespace, name, params: paramsOf(ns[name]), target: ns });
    for (const key of Object.keys(ns)) {
      const sub = ns[key];
      if (key === 'client' || key === 'config' || !sub || typeof sub !== 'object') continue;
      for (const name of methodsOf(sub))
        out.push({ namespace, group: `${namespace}.${key}`, name, params: paramsOf(sub[name]), target: sub });
    }
  }
  return out;
}

// ---------------------------------------------------------------- arguments

/** The resource an `id` parameter names: the method's own noun when the group holds several (updateVariant). */
function idFor(m: Method): string | undefined {
  const key = m.group.split('.')[1] ?? m.group;
  const full = `${m.group}.${m.name}`;
  if (/^admin\.product\.\w*Variant$/.test(full)) return ids.variant;
  if (full.startsWith('store.customer.') && /Address/.test(m.name)) return ids.address;
  if (full === 'store.order.acceptTransfer' || full === 'store.order.declineTransfer') return ids.order;
  if (full === 'admin.orderEdit.confirm' || full.startsWith('admin.orderEdit.')) return ids.orderEdit;
  if (key === 'mfa') return 'mfa_unknown';
  return ids[key];
}

// The SDK's upload methods read browser types: a FileList class (never matched here) and a File.
(globalThis as { FileList?: unknown }).FileList ??= class FileList {};
const csv = () => new File(['Product Title,Variant Title\nImported,One\n'], 'products.csv', { type: 'text/csv' });

const pixel = () =>
  new File(
    [
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    ],
    'pixel.png',
    { type: 'image/png' },
  );

/** `{}`, but for the methods that cannot even send a request without a file. */
function bodyFor(m: Method): unknown {
  const full = `${m.group}.${m.name}`;
  if (full === 'admin.upload.create') return { files: [pixel()] };
  if (full === 'admin.product.createImport' || full === 'admin.product.import') return { file: csv() };
  return {};
}

function argsFor(m: Method, ctx: { customerToken: string; email: string; password: string }): unknown[] {
  const key = m.group.split('.')[1] ?? m.group;
  return m.params.map((p) => {
    switch (p) {
      case 'headers':
      case 'query':
      case 'queryParams':
        return undefined;
      case 'body':
      case 'input':
        return bodyFor(m);
      case 'payload':
        if (m.namespace !== 'auth') return {};
        // register: an email with no identity yet (the seeded customer's is taken).
        return { email: m.name === 'register' ? 'sdk-coverage-new@example.com' : ctx.email, password: ctx.password };
      case 'id':
        return idFor(m);
      case 'actor':
        return 'customer';
      case 'method':
      case 'provider':
        return 'emailpass';
      case 'token':
        return ctx.customerToken;
      case 'cart':
        return { id: ids.cart };
      case 'code':
        return key === 'currency' ? 'eur' : 'en-US';
      case 'entity':
        return 'product';
      case 'zone':
        return 'product.details';
      case 'ruleType':
        return 'rules';
      case 'promotionType':
        return 'standard';
      case 'applicationMethodTargetType':
        return 'items';
      case 'ruleValue':
        return 'currency_code';
      case 'optionId':
        return ids.productOption;
      case 'valueId':
        return ids.optionValue;
      case 'itemId':
        return ids.orderItem;
      case 'roleId':
        return ids.rbacRole;
      case 'policyId':
        return ids.rbacPolicy;
      case 'locationId':
        return ids.stockLocation;
      case 'addressId':
        return ids.address;
      case 'methodId':
      case 'shippingMethodId':
        return ids.shippingMethod;
      default:
        return p.endsWith('Id') ? ids[p.slice(0, -2)] : undefined;
    }
  });
}

// ---------------------------------------------------------------- calling and classifying

const DESTRUCTIVE =
  /^(delete|remove|cancel|archive|revoke|decline|disable|logout|complete|confirm|convert|transfer|accept|markAs|capture|refund|deleteIndex)/;
const READ = /^(list|retrieve|me$|prices$|columns|settings$|entities$|statistics$|mePermissions|calculate)/;

/** Inside the destroying phases: sub-items first, then state moves, then cancels, then deleting the resource. */
function rank(m: Method): number {
  if (!DESTRUCTIVE.test(m.name)) return 0;
  if (m.params.filter((p) => p === 'id' || p.endsWith('Id')).length > 1) return 1;
  if (/^(delete)$/.test(m.name)) return 4;
  if (/^(cancel|archive|revoke|decline|disable|logout)/.test(m.name)) return 3;
  return 2;
}

function phase(m: Method): number {
  const destroys = DESTRUCTIVE.test(m.name);
  const orderish = /^admin\.(order|return|claim|exchange|orderEdit|draftOrder|fulfillment|payment)/.test(m.group);
  if (m.namespace === 'auth') return destroys ? 6 : 3;
  if (READ.test(m.name)) return 0;
  if (!destroys) return 1;
  if (m.namespace === 'store') return 2;
  return orderish ? 5 : 4;
}

function shortPath(url: string): string {
  const u = new URL(url);
  return u.pathname
    .split('/')
    .map((s) => (/^[a-z]+(_[a-z]+)*_[0-9A-Za-z]{8,}$/.test(s) || s === 'undefined' ? ':id' : s))
    .join('/');
}

function classify(calls: Hit[], thrown: unknown): Pick<Result, 'status' | 'http' | 'note'> {
  if (!calls.length)
    return thrown
      ? { status: 'error', http: '-', note: `no request: ${String((thrown as Error)?.message ?? thrown)}` }
      : { status: 'works', http: '-', note: 'no HTTP request (client-side only)' };
  const bad = calls.find((h) => h.status >= 500 || h.status === 0);
  const last = bad ?? calls[calls.length - 1];
  const http = `${last.method} ${shortPath(last.url)} → ${last.status || 'network'}`;
  let body: Json = {};
  try {
    body = JSON.parse(last.body);
  } catch {
    // not JSON
  }
  const note = body.code ?? body.type ?? '';
  if (bad) return { status: 'error', http, note: last.body.slice(0, 300) };
  if (last.status < 400) return { status: 'works', http, note: '' };
  // The answer when no route matches (notFoundHandler): code route_not_found, "Route GET /x not found".
  if (
    last.status === 404 &&
    (!body.code || body.code === 'route_not_found') &&
    /^Route \S+ \S+ not found$/.test(String(body.message))
  )
    return { status: 'missing', http, note: '' };
  if (last.status === 404) {
    // A literal segment the SDK sends (`/inventory-items/export`) caught by a parameter route (`/:id`).
    const named = /id:? "?([^"\s]+?)"?( |$)/.exec(String(body.message))?.[1];
    const literal = named && named !== 'undefined' && !Object.values(ids).includes(named);
    if (literal && new URL(last.url).pathname.split('/').includes(named))
      return { status: 'missing', http, note: `shadowed by a parameter route: ${body.message}` };
    return { status: 'route-exists', http, note: `${body.code ?? `${body.type} (no code)`}: ${body.message}` };
  }
  return { status: 'route-exists', http, note: String(note) };
}

/** Text for a Markdown table cell: pipes escaped, and angle brackets too (VitePress reads `<id>` as an HTML tag). */
const mdText = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Ids differ run to run: the page shows `<id>` so that it changes only when the answers do. */
const unId = (text: string) => text.replace(/\b[a-z]+(_[a-z]+)*_[0-9A-Z]{20,}\b/g, '<id>');

async function callOne(m: Method, ctx: Parameters<typeof argsFor>[1]): Promise<Result> {
  hits = [];
  let thrown: unknown;
  let timer: NodeJS.Timeout | undefined;
  try {
    const fn = m.target[m.name] as Fn;
    const result = await Promise.race([
      Promise.resolve(fn.apply(m.target, argsFor(m, ctx))),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), CALL_TIMEOUT_MS);
      }),
    ]);
    // A stream answer (fetchStream): stop it.
    (result as { abort?: () => void } | undefined)?.abort?.();
  } catch (err) {
    thrown = err;
  } finally {
    clearTimeout(timer);
  }
  const calls = hits;
  if ((thrown as Error)?.message === 'timeout' && calls.every((h) => h.status < 500))
    return { group: m.group, method: m.name, status: 'error', http: '-', note: 'timeout' };
  const found = classify(calls, thrown);
  return { group: m.group, method: m.name, ...found, note: unId(found.note) };
}

// ---------------------------------------------------------------- report

function markdown(results: Result[], totals: Record<Status, number>, sdkVersion: string): string {
  const lines: string[] = [];
  const n = results.length;
  lines.push('# Medusa JS SDK coverage');
  lines.push('');
  lines.push(
    `Generated by \`npm run sdk:coverage\` (scripts/sdk-coverage.ts): every method of \`@medusajs/js-sdk\` ${sdkVersion}'s ` +
      '`admin`, `store` and `auth` namespaces, found by reflection, called once against a seeded Emporium shop. ' +
      'Do not edit by hand: run the script again.',
  );
  lines.push('');
  lines.push(
    `**works ${totals.works} / route-exists ${totals['route-exists']} / missing ${totals.missing} / error ${totals.error} of ${n}**`,
  );
  lines.push('');
  const per = (ns: string) => results.filter((r) => r.group === ns || r.group.startsWith(`${ns}.`)).length;
  const nested = results.filter((r) => r.group.startsWith('auth.')).length;
  lines.push(
    `Methods: admin ${per('admin')}, store ${per('store')}, auth ${per('auth')} (${nested} of them in \`auth.mfa\` and \`auth.verification\`; ` +
      `without those the count is ${n - nested}, the "442 methods" of the issues). ` +
      'Internal helpers (names ending in `_`) and the `client` object are not counted.',
  );
  lines.push('');
  lines.push("- **works**: the call got a 2xx with the seeded data and the script's arguments.");
  lines.push(
    '- **route-exists**: a real route answered 4xx: a validation or state refusal (usually the `{}` body the script sends), or a seeded id it could not use. The code is in the table.',
  );
  lines.push(
    '- **missing**: no route: Fastify\'s "Route … not found" 404, or a literal path segment the SDK sends (`/inventory-items/export`) caught by a parameter route (`/:id`) and answered "not found".',
  );
  lines.push('- **error**: a 5xx, a network failure or a timeout. Every one is a bug.');
  lines.push('');
  lines.push(
    'A method counts once even when it is called with arguments a real client would not send, so "route-exists" says "the endpoint is there", not "it does everything Medusa\'s does".',
  );
  lines.push('');
  const groups = [...new Set(results.map((r) => r.group))];
  lines.push('## By namespace');
  lines.push('');
  lines.push('| namespace | methods | works | route-exists | missing | error |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const g of groups) {
    const rs = results.filter((r) => r.group === g);
    const c = (s: Status) => rs.filter((r) => r.status === s).length;
    lines.push(`| ${g} | ${rs.length} | ${c('works')} | ${c('route-exists')} | ${c('missing')} | ${c('error')} |`);
  }
  lines.push('');
  lines.push('## Missing, by namespace');
  lines.push('');
  for (const g of groups) {
    const missing = results.filter((r) => r.group === g && r.status === 'missing');
    if (missing.length)
      lines.push(`- **${g}** (${missing.length}): ${missing.map((r) => `\`${r.method}\``).join(', ')}`);
  }
  lines.push('');
  const errors = results.filter((r) => r.status === 'error');
  if (errors.length) {
    lines.push('## Errors');
    lines.push('');
    for (const r of errors) lines.push(`- \`${r.group}.${r.method}\`: ${r.http} ${mdText(r.note).replace(/\n/g, ' ')}`);
    lines.push('');
  }
  lines.push('## Every method');
  for (const g of groups) {
    lines.push('');
    lines.push(`### ${g}`);
    lines.push('');
    lines.push('| method | status | request → answer | code |');
    lines.push('|---|---|---|---|');
    for (const r of results.filter((x) => x.group === g)) {
      const note = r.status === 'error' ? 'see Errors' : r.note;
      lines.push(`| \`${r.method}\` | ${r.status} | \`${r.http}\` | ${mdText(note)} |`);
    }
  }
  lines.push('');
  return lines.join('\n');
}

// ---------------------------------------------------------------- main

async function main() {
  const t = await startTestApp();
  try {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const ctx = await seed(t);
    const dashboard = new Medusa({ baseUrl: address, auth: { type: 'jwt', jwtTokenStorageMethod: 'memory' } });
    await dashboard.client.setToken(t.adminToken);
    const storefront = new Medusa({
      baseUrl: address,
      publishableKey: t.publishableKey,
      auth: { type: 'jwt', jwtTokenStorageMethod: 'memory' },
    });
    await storefront.client.setToken(ctx.customerToken);
    // auth.* logs in, out and refreshes: its own client, so the others keep their tokens.
    const authClient = new Medusa({
      baseUrl: address,
      publishableKey: t.publishableKey,
      auth: { type: 'jwt', jwtTokenStorageMethod: 'memory' },
    });
    await authClient.client.setToken(ctx.customerToken);
    // A stored file for admin.upload.retrieve/delete (multipart, so through the SDK rather than inject).
    try {
      const uploaded = await dashboard.admin.upload.create({ files: [pixel()] } as never);
      ids.upload = uploaded.files?.[0]?.id;
    } catch (err) {
      warnings.push(`seed upload: ${String(err)}`);
    }
    await discover(dashboard);

    const methods = [
      ...enumerate(dashboard).filter((m) => m.namespace === 'admin'),
      ...enumerate(storefront).filter((m) => m.namespace === 'store'),
      ...enumerate(authClient).filter((m) => m.namespace === 'auth'),
    ];
    const ordered = methods
      .map((m, i) => ({ m, i }))
      .sort((a, b) => phase(a.m) - phase(b.m) || rank(a.m) - rank(b.m) || a.i - b.i);
    const byIndex = new Map<number, Result>();
    for (const { m, i } of ordered) byIndex.set(i, await callOne(m, ctx));
    const results = methods.map((_, i) => byIndex.get(i)!);

    const totals: Record<Status, number> = { works: 0, 'route-exists': 0, missing: 0, error: 0 };
    for (const r of results) totals[r.status]++;
    const sdkVersion = JSON.parse(readFileSync(path.join(root, 'node_modules/@medusajs/js-sdk/package.json'), 'utf8'))
      .version as string;
    if (write) writeFileSync(path.join(root, 'docs/sdk-coverage.md'), markdown(results, totals, sdkVersion));

    for (const w of warnings) console.error(`warning: ${w}`);
    for (const r of results.filter((x) => x.status === 'error'))
      console.error(`5xx/error: ${r.group}.${r.method}: ${r.http} ${r.note}`);
    console.log(
      `works ${totals.works} / route-exists ${totals['route-exists']} / missing ${totals.missing} / error ${totals.error} of ${results.length}`,
    );
    for (const e of seedErrors) console.error(`5xx while seeding: ${e}`);
    return seedErrors.length || results.some((r) => r.status === 'error' && /→ 5\d\d/.test(r.http)) ? 1 : 0;
  } finally {
    await t.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
