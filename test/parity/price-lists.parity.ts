import { type Backend, emporium, medusa } from './backends.ts';

/**
 * Price list parity with Medusa: the same products (with quantity tiers), customer groups,
 * customers and price lists (sale and override, open and for groups, draft, past, future,
 * region-scoped, tiered) are created on the Medusa peer and on Emporium, through each one's admin
 * and store API; then every shopper (a guest and customers in no group, one group, both) reads
 * `calculated_price` in each region and creates carts with each quantity, and every field is
 * compared. Not part of `npm test` (it needs the peer): see docs/price-lists.md#parity-with-medusa.
 *
 *   npx tsx test/parity/price-lists.parity.ts           # Medusa at MEDUSA_URL vs a fresh Emporium
 *   npx tsx test/parity/price-lists.parity.ts --self    # two fresh Emporiums: checks the script itself
 *
 * Env: MEDUSA_URL, MEDUSA_ADMIN_EMAIL, MEDUSA_ADMIN_PASSWORD, EMPORIUM_URL, EMPORIUM_ADMIN_EMAIL,
 * EMPORIUM_ADMIN_PASSWORD, PARITY_SEED (default 1). Exit code 1 when a field differs.
 */

/** mulberry32: the same seed gives both backends the same amounts. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env.PARITY_SEED ?? 1);
const rand = random(SEED);
const cents = (min: number, max: number) => Math.round((min + rand() * (max - min)) * 100) / 100;
const QUANTITIES = [1, 3, 5, 10, 12];
const SHOPPERS = ['guest', 'none', 'vip', 'wholesale', 'both'] as const;
type Shopper = (typeof SHOPPERS)[number];
const DAY = 86_400_000;

// ---- the configuration, decided once from the seed, written to both backends alike ----

interface PriceSpec {
  product: number;
  currency_code: 'eur' | 'usd';
  amount: number;
  min_quantity?: number;
  max_quantity?: number;
  /** Limited to the `eur` or `usd` region. */
  region?: 'eur' | 'usd';
}

const PRODUCTS = Array.from({ length: 5 }, (_, i) => {
  const eur = cents(10, 200);
  const usd = cents(10, 200);
  const prices: Omit<PriceSpec, 'product'>[] = [
    { currency_code: 'eur', amount: eur },
    { currency_code: 'usd', amount: usd },
  ];
  if (i % 2 === 0) prices.push({ currency_code: 'eur', amount: cents(5, eur), min_quantity: 5, max_quantity: 9 });
  if (i % 3 === 0) prices.push({ currency_code: 'usd', amount: cents(5, usd), min_quantity: 10 });
  return { title: `Parity product ${i}`, prices };
});
const base = (product: number, currency: 'eur' | 'usd') =>
  PRODUCTS[product].prices.find((p) => p.currency_code === currency && p.min_quantity === undefined)!.amount;
const below = (product: number, currency: 'eur' | 'usd', min = 0.5, max = 0.95) =>
  Math.round(base(product, currency) * (min + rand() * (max - min)) * 100) / 100;

interface ListSpec {
  title: string;
  type: 'sale' | 'override';
  status: 'active' | 'draft';
  groups?: ('vip' | 'wholesale')[];
  starts_at?: string;
  ends_at?: string;
  prices: PriceSpec[];
}

const now = Date.now();
const LISTS: ListSpec[] = [
  {
    title: 'Open sale',
    type: 'sale',
    status: 'active',
    prices: [
      { product: 0, currency_code: 'eur', amount: below(0, 'eur') },
      { product: 1, currency_code: 'eur', amount: below(1, 'eur'), min_quantity: 3 },
      { product: 2, currency_code: 'usd', amount: below(2, 'usd') },
    ],
  },
  {
    title: 'VIP override',
    type: 'override',
    status: 'active',
    groups: ['vip'],
    prices: [
      { product: 0, currency_code: 'eur', amount: below(0, 'eur', 0.7, 1.2) },
      { product: 3, currency_code: 'eur', amount: below(3, 'eur', 0.7, 1.2), region: 'eur' },
      { product: 4, currency_code: 'usd', amount: below(4, 'usd'), min_quantity: 5, max_quantity: 10 },
    ],
  },
  {
    title: 'Wholesale sale',
    type: 'sale',
    status: 'active',
    groups: ['wholesale'],
    prices: [
      { product: 0, currency_code: 'eur', amount: below(0, 'eur', 0.3, 0.5), min_quantity: 10 },
      { product: 1, currency_code: 'usd', amount: below(1, 'usd') },
      { product: 2, currency_code: 'eur', amount: below(2, 'eur') },
    ],
  },
  {
    title: 'Draft VIP',
    type: 'sale',
    status: 'draft',
    groups: ['vip'],
    prices: [{ product: 1, currency_code: 'eur', amount: below(1, 'eur', 0.1, 0.2) }],
  },
  {
    title: 'Ended',
    type: 'sale',
    status: 'active',
    ends_at: new Date(now - DAY).toISOString(),
    prices: [{ product: 3, currency_code: 'eur', amount: below(3, 'eur', 0.1, 0.2) }],
  },
  {
    title: 'Not yet',
    type: 'sale',
    status: 'active',
    starts_at: new Date(now + DAY).toISOString(),
    prices: [{ product: 2, currency_code: 'eur', amount: below(2, 'eur', 0.1, 0.2) }],
  },
  {
    title: 'Members',
    type: 'override',
    status: 'active',
    groups: ['vip', 'wholesale'],
    starts_at: new Date(now - DAY).toISOString(),
    ends_at: new Date(now + DAY).toISOString(),
    prices: [
      { product: 3, currency_code: 'usd', amount: below(3, 'usd') },
      { product: 4, currency_code: 'eur', amount: below(4, 'eur') },
    ],
  },
];

// ---- writing it ----

interface Setup {
  regions: Record<'eur' | 'usd', string>;
  /** Product and variant ids by product index. */
  products: string[];
  variants: string[];
  tokens: Record<Shopper, string | undefined>;
}

async function configure(b: Backend, run: string): Promise<Setup> {
  const { sales_channel: channel } = await b.admin('POST', '/admin/sales-channels', { name: `Parity ${run}` });
  const { api_key: key } = await b.admin('POST', '/admin/api-keys', { title: `Parity ${run}`, type: 'publishable' });
  await b.admin('POST', `/admin/api-keys/${key.id}/sales-channels`, { add: [channel.id] });
  b.setKey(key.token);
  const regions = {} as Setup['regions'];
  for (const currency_code of ['eur', 'usd'] as const) {
    const { region } = await b.admin('POST', '/admin/regions', {
      name: `Parity ${currency_code} ${run}`,
      currency_code,
    });
    regions[currency_code] = region.id;
  }
  const products: string[] = [];
  const variants: string[] = [];
  for (const p of PRODUCTS) {
    const { product } = await b.admin('POST', '/admin/products', {
      title: `${p.title} ${run}`,
      status: 'published',
      options: [{ title: 'Size', values: ['One'] }],
      sales_channels: [{ id: channel.id }],
      variants: [{ title: 'One', options: { Size: 'One' }, manage_inventory: false, prices: p.prices }],
    });
    products.push(product.id);
    variants.push(product.variants[0].id);
  }
  const groups = {} as Record<'vip' | 'wholesale', string>;
  for (const g of ['vip', 'wholesale'] as const)
    groups[g] = (await b.admin('POST', '/admin/customer-groups', { name: `Parity ${g} ${run}` })).customer_group.id;
  const tokens: Setup['tokens'] = { guest: undefined, none: '', vip: '', wholesale: '', both: '' };
  for (const who of ['none', 'vip', 'wholesale', 'both'] as const) {
    const email = `parity-${who}-${run}@example.com`;
    const password = 'parity-password-1';
    const { token: registration } = await b.open('POST', '/auth/customer/emailpass/register', { email, password });
    const { customer } = await b.store('POST', '/store/customers', { email, first_name: who }, registration);
    tokens[who] = (await b.open('POST', '/auth/customer/emailpass', { email, password })).token;
    const member = who === 'both' ? (['vip', 'wholesale'] as const) : who === 'none' ? [] : [who];
    for (const g of member)
      await b.admin('POST', `/admin/customer-groups/${groups[g]}/customers`, { add: [customer.id] });
  }
  for (const l of LISTS) {
    await b.admin('POST', '/admin/price-lists', {
      title: `${l.title} ${run}`,
      description: 'parity',
      type: l.type,
      status: l.status,
      ...(l.starts_at ? { starts_at: l.starts_at } : {}),
      ...(l.ends_at ? { ends_at: l.ends_at } : {}),
      ...(l.groups ? { rules: { 'customer.groups.id': l.groups.map((g) => groups[g]) } } : {}),
      prices: l.prices.map(({ product, region, ...price }) => ({
        ...price,
        variant_id: variants[product],
        ...(region ? { rules: { region_id: regions[region] } } : {}),
      })),
    });
  }
  return { regions, products, variants, tokens };
}

// ---- reading it back: one flat record of named values per backend ----

type Reading = Map<string, unknown>;

const CALCULATED = [
  'calculated_amount',
  'original_amount',
  'currency_code',
  'is_calculated_price_price_list',
  'is_original_price_price_list',
] as const;

async function read(b: Backend, s: Setup): Promise<Reading> {
  const out: Reading = new Map();
  const index = new Map(s.variants.map((id, i) => [id, i]));
  for (const who of SHOPPERS) {
    for (const currency of ['eur', 'usd'] as const) {
      const region = s.regions[currency];
      const ids = s.products.map((id) => `id[]=${id}`).join('&');
      const query = `${ids}&region_id=${region}&fields=*variants.calculated_price&limit=50`;
      const { products } = await b.store('GET', `/store/products?${query}`, undefined, s.tokens[who]);
      for (const p of products) {
        for (const v of p.variants) {
          const i = index.get(v.id);
          if (i === undefined) continue;
          const c = v.calculated_price ?? {};
          const at = `catalog ${who}/${currency} product ${i}`;
          for (const f of CALCULATED) out.set(`${at} ${f}`, c[f] ?? null);
          out.set(`${at} price_list_type`, c.calculated_price?.price_list_type ?? null);
        }
      }
      for (const quantity of QUANTITIES) {
        const items = s.variants.map((variant_id) => ({ variant_id, quantity }));
        const { cart } = await b.store('POST', '/store/carts', { region_id: region, items }, s.tokens[who]);
        for (const line of cart.items)
          out.set(
            `cart ${who}/${currency} x${quantity} product ${index.get(line.variant_id)} unit_price`,
            line.unit_price,
          );
      }
    }
  }
  return out;
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' || typeof b === 'number') return Math.abs(Number(a) - Number(b)) < 0.005;
  return a === b;
}

async function main() {
  const self = process.argv.includes('--self');
  const run = `${SEED}-${Date.now().toString(36)}`;
  const [left, right] = await Promise.all([self ? emporium('emporium-a') : medusa(), emporium()]);
  try {
    const readings: Reading[] = [];
    for (const b of [left, right]) readings.push(await read(b, await configure(b, run)));
    const keys = [...new Set([...readings[0].keys(), ...readings[1].keys()])].sort();
    const mismatches = keys.filter((k) => !same(readings[0].get(k), readings[1].get(k)));
    for (const k of mismatches)
      console.log(
        `${k}: ${left.name} ${JSON.stringify(readings[0].get(k))}, ${right.name} ${JSON.stringify(readings[1].get(k))}`,
      );
    const carts = SHOPPERS.length * 2 * QUANTITIES.length;
    console.log(
      `seed ${SEED}: ${keys.length} fields compared (${carts} carts per backend), ${keys.length - mismatches.length} matched, ${mismatches.length} differ`,
    );
    process.exitCode = mismatches.length ? 1 : 0;
  } finally {
    await Promise.all([left.close(), right.close()]);
  }
}

await main();
