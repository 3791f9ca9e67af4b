/**
 * What the parts of checkout's statement cost, A/B in one run (issue 36): the order counters'
 * trigger (migration order_desk_counters), the low-stock partial index (order_desk_at_scale: it
 * indexes inventory_quantity, so no stock update of a variant is a HOT update any more), and
 * reservations (migration checkout_reservations: a variant with inventory items reserves at a
 * location; one without keeps the old rule and decrements its own number). PostgreSQL only: the
 * parts are switched off and on again with plain SQL between rounds, on the same server and data.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> npm run bench:checkout-ab -- --flows 150 --rounds 3
 *
 * `--extra variants.json` adds variants of your own (`[{ "name", "off": SQL, "on": SQL }]`).
 * Uses the database `<db>_ab` (made afresh). Each round runs every variant in turn, `--flows`
 * sequential two-call checkouts each (cart with its item, then complete: the shop and flow of
 * bench/checkout.ts, both from bench/checkout-setup.ts), and reports per variant
 * the median of complete's own latency and the server's and PostgreSQL's CPU per order, with the
 * ratio to "as shipped". Run `npm run build:server` first (the server is dist/main.js).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { cartWithItem, complete, cpuMs, startCheckoutShop } from './checkout-setup.ts';
import { freshBenchDatabase, loadAverage } from './lib.ts';
import { percentile } from './measure.ts';

const USAGE = `DATABASE_URL=postgres://… npm run bench:checkout-ab -- [--flows 150] [--rounds 3] [--port 9303] [--extra variants.json]`;
const { values: opts } = parseArgs({
  options: {
    flows: { type: 'string', default: '150' },
    rounds: { type: 'string', default: '3' },
    port: { type: 'string', default: '9303' },
    /** A JSON file of more variants to try: [{ "name", "off": SQL, "on": SQL }]. */
    extra: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
const FLOWS = Number(opts.flows);
const ROUNDS = Number(opts.rounds);
const PORT = Number(opts.port);

const LOW_STOCK_INDEX = `create index if not exists product_variants_low_stock_idx on product_variants using btree (inventory_quantity, id)
  where deleted_at is null and manage_inventory and not allow_backorder and inventory_quantity <= 5`;

/** A variant of the checkout: SQL that switches a part off before its flows, and on again after. */
interface Variant {
  name: string;
  off?: string;
  on?: string;
  /** Checks out the variant without inventory items (the old rule: no reservation). */
  unreserved?: boolean;
}
const VARIANTS: Variant[] = [
  { name: 'as shipped' },
  {
    name: 'no order counters trigger',
    off: 'alter table orders disable trigger orders_counters',
    on: 'alter table orders enable trigger orders_counters',
  },
  { name: 'no low-stock index', off: 'drop index if exists product_variants_low_stock_idx', on: LOW_STOCK_INDEX },
  { name: 'no reservations (variant without items)', unreserved: true },
  ...(opts.extra ? (JSON.parse(readFileSync(opts.extra, 'utf8')) as Variant[]) : []),
];

/** The database `<db>_ab` beside DATABASE_URL's, made afresh. */
async function database(): Promise<string> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error(`PostgreSQL only: set DATABASE_URL\n${USAGE}`);
  const url = await freshBenchDatabase(`${new URL(base).pathname.slice(1) || 'emporium'}_ab`);
  return url!;
}

async function main() {
  const url = await database();
  const dbName = new URL(url).pathname.slice(1);
  const shop = await startCheckoutShop({ port: PORT, databaseUrl: url });
  const db = new pg.Client({ connectionString: url });
  try {
    await db.connect();
    const reserved = await shop.variantId(1_000_000, 'Reserved tee');
    const unreserved = await shop.variantId(1_000_000, 'Unreserved tee');
    // The old rule: a variant that manages stock without items decrements its own number (inventory_reserve).
    await db.query('delete from product_variant_inventory_items where variant_id = $1', [unreserved]);

    const ms = new Map<string, number[]>();
    const cpu = new Map<string, { server: number; postgres: number; orders: number }>();
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of VARIANTS) {
        if (v.off) await db.query(v.off);
        try {
          const before = cpuMs(shop.server.pid(), dbName);
          for (let i = 0; i < FLOWS; i++) {
            // bench/checkout.ts's two-call flow, with complete's own latency timed.
            const cart = await cartWithItem(shop, v.unreserved ? unreserved : reserved, n++);
            if (!cart.cartId) throw new Error(`cart answered ${cart.status}`);
            const start = performance.now();
            const status = await complete(shop, cart.cartId);
            if (status !== 200) throw new Error(`completion answered ${status}`);
            const list = ms.get(v.name) ?? [];
            list.push(performance.now() - start);
            ms.set(v.name, list);
          }
          const after = cpuMs(shop.server.pid(), dbName);
          const c = cpu.get(v.name) ?? { server: 0, postgres: 0, orders: 0 };
          c.server += after.server - before.server; // the whole flow's: the cart's creation too
          c.postgres += after.postgres - before.postgres;
          c.orders += FLOWS;
          cpu.set(v.name, c);
        } finally {
          if (v.on) await db.query(v.on);
        }
      }
    }
    const base = percentile(
      [...(ms.get(VARIANTS[0].name) ?? [])].sort((a, b) => a - b),
      50,
    );
    const rows = VARIANTS.map((v) => {
      const sorted = [...(ms.get(v.name) ?? [])].sort((a, b) => a - b);
      const c = cpu.get(v.name)!;
      const median = percentile(sorted, 50);
      return {
        variant: v.name,
        'complete p50 ms': +median.toFixed(2),
        'complete p95 ms': +percentile(sorted, 95).toFixed(2),
        'vs as shipped': +(median / base).toFixed(3),
        'flow server cpu ms/order': +(c.server / c.orders).toFixed(2),
        'flow pg cpu ms/order': +(c.postgres / c.orders).toFixed(2),
      };
    });
    console.log(`load average ${loadAverage()}; ${ROUNDS} rounds × ${FLOWS} flows per variant, interleaved`);
    console.table(rows);
  } finally {
    await db.end().catch(() => {});
    await shop.stop();
  }
}

await main();
