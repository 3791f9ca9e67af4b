/**
 * The shop and the storefront flow both checkout benchmarks measure (bench/checkout.ts, and
 * bench/checkout-ab.ts, which switches parts of the checkout off between its rounds): the real
 * server on a fresh data dir, seeded through the admin API with one region and products of one
 * variant that manages its stock, and the shopper's calls. One setup, so an A/B figure is a figure
 * of the same flow the plain benchmark reports.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN, call as callAt, closeAgent, expectOk, type Server, startServer, waitFor200 } from './lib.ts';

type Headers = Record<string, string>;

export interface CheckoutShop {
  server: Server;
  call: (method: string, url: string, headers: Headers, body?: unknown) => ReturnType<typeof callAt>;
  admin: Headers;
  /** The publishable key's header: what a storefront sends. */
  store: Headers;
  /** A new published product of one variant with `stock` units (its title must be unique): the variant's id. */
  variantId(stock: number, title?: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * `npm start` on an empty data dir (it migrates and creates the admin; with `databaseUrl`, on that
 * PostgreSQL database, else on PGlite in the data dir), then the shop seeded through the admin API.
 */
export async function startCheckoutShop(opts: { port: number; databaseUrl?: string }): Promise<CheckoutShop> {
  const base = `http://127.0.0.1:${opts.port}`;
  const call = (method: string, url: string, headers: Headers, body?: unknown) =>
    callAt(base, method, url, headers, body);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-bench-checkout-'));
  const server = startServer(opts.port, {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DATABASE_URL: opts.databaseUrl ?? '',
  });
  const stop = async () => {
    closeAgent();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor200(`${base}/health`, performance.now(), { server });
    const { token } = await expectOk(call('POST', '/auth/user/emailpass', {}, ADMIN));
    const admin = { authorization: `Bearer ${token}` };
    // From the API, not the start line: a loaded machine prints it late.
    const { api_keys } = await expectOk(call('GET', '/admin/api-keys?type=publishable&limit=1', admin));
    const store = { 'x-publishable-api-key': api_keys[0].token as string };
    await expectOk(
      call('POST', '/admin/regions', admin, { name: 'Europe', currency_code: 'eur', countries: ['de', 'fr'] }),
    );
    const { sales_channels } = await expectOk(call('GET', '/admin/sales-channels', admin));
    const variantId = async (stock: number, title = `Bench tee ${stock}`) => {
      const { product } = await expectOk(
        call('POST', '/admin/products', admin, {
          title,
          status: 'published',
          sales_channels: [{ id: sales_channels[0].id }],
          options: [{ title: 'Size', values: ['M'] }],
          variants: [
            {
              title: 'M',
              options: { Size: 'M' },
              prices: [{ currency_code: 'eur', amount: 2500 }],
              inventory_quantity: stock,
              manage_inventory: true,
            },
          ],
        }),
      );
      return product.variants[0].id as string;
    };
    return { server, call, admin, store, variantId, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A shopper's cart created with one unit of the variant: the answer's status, and the cart's id when 200. */
export async function cartWithItem(
  shop: CheckoutShop,
  variantId: string,
  n: number,
): Promise<{ status: number; cartId?: string }> {
  // Adding an item checks stock too: on a sold-out item the cart itself is refused (400).
  const created = await shop.call('POST', '/store/carts', shop.store, {
    email: `shopper${n}@example.com`,
    items: [{ variant_id: variantId, quantity: 1 }],
  });
  return created.status === 200 ? { status: 200, cartId: created.json.cart.id } : { status: created.status };
}

/** The completion of a cart: the HTTP status. */
export async function complete(shop: CheckoutShop, cartId: string): Promise<number> {
  return (await shop.call('POST', `/store/carts/${cartId}/complete`, shop.store)).status;
}

/** A storefront flow for shopper `n`: the HTTP status of the completion (or of the call that refused). */
export type Flow = (shop: CheckoutShop, variantId: string, n: number) => Promise<number>;

/** Two calls: the cart created with its item, then complete. */
export const twoCalls: Flow = async (shop, variantId, n) => {
  const cart = await cartWithItem(shop, variantId, n);
  return cart.cartId ? complete(shop, cart.cartId) : cart.status;
};

/** Three calls: an empty cart with the email, the item added, then complete. */
export const threeCalls: Flow = async (shop, variantId, n) => {
  const { cart } = await expectOk(shop.call('POST', '/store/carts', shop.store, { email: `shopper${n}@example.com` }));
  await expectOk(
    shop.call('POST', `/store/carts/${cart.id}/line-items`, shop.store, { variant_id: variantId, quantity: 1 }),
  );
  return complete(shop, cart.id);
};

/**
 * CPU time (ms) used so far by the server process and by the PostgreSQL backends serving the
 * database `dbName` (Linux /proc; clock ticks of 10 ms). On a shared machine, CPU per order says
 * more than wall-clock rates, which depend on what else runs.
 */
export function cpuMs(serverPid: number, dbName: string): { server: number; postgres: number } {
  const ticks = (pid: string) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  let postgres = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dbName)) postgres += ticks(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return { server: ticks(String(serverPid)) * 10, postgres: postgres * 10 };
}
