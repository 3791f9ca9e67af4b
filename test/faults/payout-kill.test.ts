import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packExample } from '../../src/modules/marketplace/marketplace.testing.ts';
import { startStripeStandIn, type StripeStandIn } from '../stripe-stand-in.ts';
import {
  adminToken,
  eventually,
  freePort,
  freshDatabase,
  startServer,
  stopServer,
  type ServerProcess,
} from '../processes.ts';
import { createTempPostgres, type TempPostgres } from './temp-postgres.ts';

/**
 * A payout run killed with SIGKILL in the middle: the marketplace process dies while Stripe is
 * making a transfer it will never hear about (the most dangerous moment: money moved, nothing
 * recorded). A new process on the same database finishes the run, through the scheduled job at
 * its start, and every sale was transferred exactly once at the Stripe stand-in (idempotency keys
 * `payout_<sale id>`). On the machine's PostgreSQL when DATABASE_URL is set (a database of the
 * test's own beside it), else on a cluster of the test's own.
 */
const WEBHOOK_SECRET = 'whsec_payout_kill_0123';
const SALES = 6;
const KILLED_AT = 3; // the transfer in flight when the process dies

let stripe: StripeStandIn;
let pg: TempPostgres | undefined;
let dataDir: string;
let env: Record<string, string>;
let market: ServerProcess | undefined;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  let url = process.env.DATABASE_URL;
  if (url) {
    url = await freshDatabase(url, `${new URL(url).pathname.slice(1) || 'test'}_payout_kill`);
  } else {
    pg = createTempPostgres(await freePort());
    url = await freshDatabase(pg.url, 'emporium_payout_kill');
  }
  dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-payout-kill-'));
  env = {
    SERVICE_ROLE: 'marketplace',
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    MARKETPLACE_RATE_LIMIT: '1000000',
    STRIPE_SECRET_KEY: 'sk_test_stand_in',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
    MARKETPLACE_PAYOUT_EVERY: 'off',
  };
});

afterAll(async () => {
  if (market) await stopServer(market);
  await stripe?.close();
  pg?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The stand-in's transfers to the account, and the idempotency keys it was asked with. */
const transfersTo = (account: string) =>
  [...stripe.billing.transfers.values()].filter((t) => t.destination === account);
const transferKeys = () =>
  stripe.requests.filter((r) => r.path === '/v1/transfers').map((r) => String(r.headers['idempotency-key']));

async function publish(s: ServerProcess, token: string, bytes: Buffer, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/gzip' }), 'plugin.tgz');
  const res = await fetch(`${s.url}/admin/marketplace/items`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()).item as { marketplace_id: string };
}

/** Stripe Checkout as a buyer goes through it, and the webhook Stripe then sends. */
async function buy(s: ServerProcess, marketplaceId: string, instanceId: string): Promise<void> {
  const session = await s.call('POST', '/store/marketplace/checkout/session', {
    marketplace_id: marketplaceId,
    version: '1.0.0',
    customer_email: 'buyer@shop.example',
    instance_id: instanceId,
  });
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  const cs = [...stripe.sessions.values()].find((c) => c.client_reference_id === session.body.id)!;
  const now = Math.floor(Date.now() / 1000);
  const paid = stripe.complete(cs.id, now);
  const events = [{ type: 'checkout.session.completed', object: paid as unknown }, ...stripe.billing.takeEvents()];
  for (const e of events) {
    const signed = stripe.signed({ type: e.type, object: e.object, secret: WEBHOOK_SECRET, timestamp: now });
    const res = await fetch(`${s.url}/store/marketplace/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed.signature },
      body: signed.payload,
    });
    expect(res.status, await res.text()).toBe(200);
  }
}

interface Sale {
  id: string;
  payout_status: string;
  transfer_id: string | null;
}
async function salesOf(s: ServerProcess, token: string, vendorId: string): Promise<Sale[]> {
  const res = await s.call('GET', `/admin/marketplace/sales?vendor_id=${vendorId}&limit=100`, undefined, { token });
  expect(res.status).toBe(200);
  return res.body.sales;
}

describe('payouts across a kill -9', () => {
  it('a run killed while Stripe makes a transfer is finished by the next process: every sale transferred once', {
    timeout: 600_000,
  }, async () => {
    market = await startServer('market', env);
    let token = await adminToken(market);
    const account = 'acct_killtest';
    const vendor = await market.call(
      'POST',
      '/admin/marketplace/vendors',
      { name: 'Kill test', email: 'kill@vendors.example', namespaces: ['@killtest'] },
      { token },
    );
    expect(vendor.status, JSON.stringify(vendor.body)).toBe(200);
    const vendorId = vendor.body.vendor.id;
    const payouts = await market.call(
      'POST',
      `/admin/marketplace/vendors/${vendorId}/payouts`,
      { commission_percent: 20, payout_account: account },
      { token },
    );
    expect(payouts.status, JSON.stringify(payouts.body)).toBe(200);
    const item = await publish(
      market,
      token,
      await packExample('loyalty-points', { id: 'paid-kill', vendor: 'killtest' }),
      { price_eur: '25' },
    );
    console.log('published; buying');
    for (let i = 0; i < SALES; i++) await buy(market, item.marketplace_id, `inst_kill_${i}`);
    console.log('bought; running payouts');
    const sales = await salesOf(market, token, vendorId);
    expect(sales.map((s) => s.payout_status)).toEqual(Array(SALES).fill('pending'));

    // Each transfer is held at the stand-in until the next one is being watched for, so the
    // process is killed with exactly KILLED_AT - 1 transfers recorded and one in flight.
    let held = stripe.hold(/^\/v1\/transfers$/);
    const running = market.call('POST', '/admin/marketplace/payouts/run', {}, { token }).catch(() => null);
    // A run that ends before the transfer it should be killed in says why.
    const arrivedOr = async (h: typeof held) => {
      const ended = await Promise.race([h.arrived.then(() => null), running]);
      if (ended) throw new Error(`the payout run ended early: ${JSON.stringify(ended.body)}`);
    };
    for (let n = 1; n < KILLED_AT; n++) {
      await arrivedOr(held);
      const next = stripe.hold(/^\/v1\/transfers$/);
      held.release();
      await held.answered;
      held = next;
    }
    await arrivedOr(held);
    market.signal('SIGKILL');
    expect(await market.exited).toBeNull(); // killed, no exit code
    await running;
    // Stripe carries the transfer out after all; the dead process never hears of it.
    held.release();
    await held.answered;
    expect(transfersTo(account)).toHaveLength(KILLED_AT);

    // A new process on the same database: its scheduled payout job runs at start.
    console.log('killed; restarting');
    market = await startServer('market-restarted', { ...env, MARKETPLACE_PAYOUT_EVERY: '1d' });
    token = await adminToken(market);
    const after = (await eventually(
      async () => {
        const rows = await salesOf(market!, token, vendorId);
        return rows.every((s) => s.payout_status === 'paid') ? rows : null;
      },
      60_000,
      'every sale paid out after the restart',
    )) as Sale[];
    const again = await market.call('POST', '/admin/marketplace/payouts/run', {}, { token });
    expect(again.body).toMatchObject({ transferred: 0, reversed: 0 });

    const transfers = transfersTo(account);
    expect(transfers).toHaveLength(SALES);
    expect(transfers.map((t) => t.transfer_group).sort()).toEqual(sales.map((s) => s.id).sort());
    expect(new Set(transferKeys())).toEqual(new Set(sales.map((s) => `payout_${s.id}`)));
    for (const s of after) expect(s.transfer_id).toBe(transfers.find((t) => t.transfer_group === s.id)!.id);
  });
});
