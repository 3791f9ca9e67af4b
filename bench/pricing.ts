/**
 * Pricing benchmark: starts the real server (dist/, `npm run build:server` first) as a child
 * process, seeds through the admin API a tax-inclusive region (VAT 20 %, prices including it) with
 * two promotions (an automatic 5 % on the region, a 10 % code on a collection) and a plain region
 * beside it (no tax region, no promotion), a customer group with a sale price list and a customer
 * in it; then measures, sequentially (median and p95 ms):
 *   - the store product list with `region_id` and `country_code` (tax-inclusive prices), as a
 *     guest and as the signed-in customer of the group;
 *   - the checkout (a cart with an item, then complete) in the plain region, and in the priced one
 *     with the code sent with the new cart (`promo_codes` on `POST /store/carts`, as Medusa's
 *     contract allows): two promotions and tax lines, in as many calls as the plain one. Target: at
 *     most 1.5× the plain one (the last column), for the whole flow and for `complete` alone.
 *     The two flows run interleaved (A B A B …). On a shared machine the figures are noise; run it alone.
 *
 *   npm run bench:pricing                                     # PGlite in a temp data dir
 *   npm run bench:pricing -- --requests 200 --flows 100
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:pricing
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ADMIN,
  call as callAt,
  closeAgent,
  expectOk,
  freshBenchDatabase,
  loadAverage,
  publishableKeyOf,
  startServer,
  waitFor200,
} from './lib.ts';
import { percentile } from './measure.ts';

const { values: opts } = parseArgs({
  options: {
    requests: { type: 'string', default: '200' },
    flows: { type: 'string', default: '100' },
    products: { type: 'string', default: '40' },
    port: { type: 'string', default: '9302' },
  },
});
const REQUESTS = Number(opts.requests);
const FLOWS = Number(opts.flows);
const PRODUCTS = Number(opts.products);
const PORT = Number(opts.port);
const BASE = `http://127.0.0.1:${PORT}`;

type Headers = Record<string, string>;
const call = (method: string, url: string, headers: Headers, body?: unknown) =>
  callAt(BASE, method, url, headers, body);

interface Seeded {
  priced: string;
  plain: string;
  code: string;
  variants: string[];
  customer: Headers;
}

async function seed(store: Headers): Promise<Seeded> {
  const { token } = await expectOk(call('POST', '/auth/user/emailpass', {}, ADMIN));
  const admin = { authorization: `Bearer ${token}` };
  const region = async (name: string, currency_code: string, country: string) =>
    (await expectOk(call('POST', '/admin/regions', admin, { name, currency_code, countries: [country] }))).region
      .id as string;
  const priced = await region('Österreich', 'eur', 'at');
  const plain = await region('Plain', 'usd', 'us');
  await expectOk(
    call('POST', '/admin/tax-regions', admin, {
      country_code: 'at',
      default_tax_rate: { rate: 20, code: 'USt', name: 'USt' },
    }),
  );
  await expectOk(
    call('POST', '/admin/price-preferences', admin, {
      attribute: 'currency_code',
      value: 'eur',
      is_tax_inclusive: true,
    }),
  );
  const { collection } = await expectOk(call('POST', '/admin/collections', admin, { title: 'Summer' }));
  const { sales_channels } = await expectOk(call('GET', '/admin/sales-channels', admin));
  const variants: string[] = [];
  for (let i = 0; i < PRODUCTS; i++) {
    const { product } = await expectOk(
      call('POST', '/admin/products', admin, {
        title: `Bench priced ${i}`,
        status: 'published',
        collection_id: collection.id,
        sales_channels: [{ id: sales_channels[0].id }],
        options: [{ title: 'Size', values: ['M'] }],
        variants: [
          {
            title: 'M',
            options: { Size: 'M' },
            prices: [
              { currency_code: 'eur', amount: 1190 + i * 10 },
              { currency_code: 'usd', amount: 1000 + i * 10 },
            ],
            manage_inventory: false,
          },
        ],
      }),
    );
    variants.push(product.variants[0].id);
  }
  const { customer_group: group } = await expectOk(call('POST', '/admin/customer-groups', admin, { name: 'VIP' }));
  await expectOk(
    call('POST', '/admin/price-lists', admin, {
      title: 'VIP sale',
      description: 'bench',
      type: 'sale',
      status: 'active',
      rules: { 'customer.groups.id': [group.id] },
      prices: variants.map((variant_id) => ({ variant_id, currency_code: 'eur', amount: 990 })),
    }),
  );
  const code = 'SUMMER10';
  await expectOk(
    call('POST', '/admin/promotions', admin, {
      code,
      type: 'standard',
      status: 'active',
      application_method: {
        type: 'percentage',
        value: 10,
        target_type: 'items',
        allocation: 'each',
        max_quantity: 10,
        target_rules: [{ attribute: 'items.product.collection_id', operator: 'in', values: [collection.id] }],
      },
    }),
  );
  await expectOk(
    call('POST', '/admin/promotions', admin, {
      code: 'AUTO5',
      type: 'standard',
      status: 'active',
      is_automatic: true,
      rules: [{ attribute: 'region_id', operator: 'in', values: [priced] }],
      application_method: { type: 'percentage', value: 5, target_type: 'order', allocation: 'across' },
    }),
  );
  const email = 'bench-vip@example.com';
  const password = 'bench-password-1';
  const { token: registration } = await expectOk(
    call('POST', '/auth/customer/emailpass/register', {}, { email, password }),
  );
  const { customer } = await expectOk(
    call('POST', '/store/customers', { ...store, authorization: `Bearer ${registration}` }, { email }),
  );
  await expectOk(call('POST', `/admin/customer-groups/${group.id}/customers`, admin, { add: [customer.id] }));
  const { token: login } = await expectOk(call('POST', '/auth/customer/emailpass', {}, { email, password }));
  return { priced, plain, code, variants, customer: { ...store, authorization: `Bearer ${login}` } };
}

async function timed(name: string, n: number, run: (i: number) => Promise<void>) {
  return (await interleaved(n, [[name, run]]))[0];
}

/**
 * Runs the scenarios in turn, one run of each per round (A B A B …), so a database that grows
 * with every order, or a machine that gets busier, weighs on each alike. A run may return the
 * time of one call inside it: those come back as rows of their own after the flows' rows.
 */
async function interleaved(n: number, scenarios: [string, (i: number) => Promise<number | void>][]) {
  for (let i = 0; i < Math.min(20, n); i++) for (const [, run] of scenarios) await run(-1 - i); // warm-up
  const times = scenarios.map((): number[] => []);
  const inner = scenarios.map((): number[] => []);
  for (let i = 0; i < n; i++) {
    for (const [k, [, run]] of scenarios.entries()) {
      const start = performance.now();
      const part = await run(i);
      times[k].push(performance.now() - start);
      if (typeof part === 'number') inner[k].push(part);
    }
  }
  const row = (scenario: string, xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return {
      scenario,
      runs: xs.length,
      'median ms': +percentile(sorted, 50).toFixed(2),
      'p95 ms': +percentile(sorted, 95).toFixed(2),
    };
  };
  return [
    ...scenarios.map(([scenario], k) => row(scenario, times[k])),
    ...scenarios.flatMap(([scenario], k) => (inner[k].length ? [row(`${scenario}: complete alone`, inner[k])] : [])),
  ];
}

async function main() {
  const databaseUrl = await freshBenchDatabase('emporium_bench_pricing');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-bench-pricing-'));
  const server = startServer(PORT, {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DATABASE_URL: databaseUrl ?? '',
  });
  try {
    await waitFor200(`${BASE}/health`, performance.now(), { server });
    const store = { 'x-publishable-api-key': await publishableKeyOf(server) };
    const s = await seed(store);
    const list = `/store/products?limit=20&region_id=${s.priced}&country_code=at&fields=*variants.calculated_price`;
    // The priced flow creates its cart with the code (Medusa's create takes `promo_codes`), so
    // both flows make the same two calls. `complete` is timed on its own too (the value returned).
    const checkout = (region: string, code?: string) => async (i: number) => {
      const { cart } = await expectOk(
        call('POST', '/store/carts', store, {
          region_id: region,
          email: `bench${i}@example.com`,
          items: [{ variant_id: s.variants[Math.abs(i) % s.variants.length], quantity: 2 }],
          ...(code ? { promo_codes: [code] } : {}),
        }),
      );
      const started = performance.now();
      const done = await call('POST', `/store/carts/${cart.id}/complete`, store);
      const completeMs = performance.now() - started;
      if (done.status !== 200) throw new Error(`completion answered ${done.status}`);
      if (code && !(done.json.order.discount_total > 0 && done.json.order.tax_total > 0))
        throw new Error('the priced order has no discount or no tax');
      return completeMs;
    };
    const results: (Awaited<ReturnType<typeof timed>> & { 'vs plain'?: number })[] = [
      await timed('store list, region + country (tax-inclusive), guest', REQUESTS, async () => {
        await expectOk(call('GET', list, store));
      }),
      await timed('store list, region + country, customer in a price-list group', REQUESTS, async () => {
        await expectOk(call('GET', list, s.customer));
      }),
    ];
    const [plain, priced, plainComplete, pricedComplete] = await interleaved(FLOWS, [
      ['checkout, plain (no tax, no promotion): 2 calls', checkout(s.plain)],
      ['checkout, 2 promotions + tax lines: 2 calls (the code with the cart)', checkout(s.priced, s.code)],
    ]);
    results.push(
      plain,
      { ...priced, 'vs plain': +(priced['median ms'] / plain['median ms']).toFixed(2) },
      plainComplete,
      { ...pricedComplete, 'vs plain': +(pricedComplete['median ms'] / plainComplete['median ms']).toFixed(2) },
    );
    console.log(`\nEmporium pricing benchmark: ${databaseUrl ? 'postgres' : 'pglite'}, load average ${loadAverage()}`);
    console.table(results);
    console.log('target: the checkout with 2 promotions and tax lines at most 1.5× the plain one (vs plain)');
  } finally {
    closeAgent();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
