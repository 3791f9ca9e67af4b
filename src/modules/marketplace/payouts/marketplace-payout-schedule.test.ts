import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../../test/app.ts';
import { admin } from '../sales/checkout.testing.ts';
import { stripeMoney } from '../sales/stripe-money.ts';
import { buy, itemOf, startStripeWorld, vendorOf, type StripeWorld } from '../sales/stripe-world.testing.ts';
import { payoutsJob, runScheduledPayouts, type ScheduleOptions } from './payout-job.ts';
import { claimPayoutPeriod } from './queries.ts';

let w: StripeWorld;
beforeAll(async () => {
  w = await startStripeWorld();
});
afterAll(() => w.close());

const DAY = 86_400_000;
const LEASE = 30_000;
const instance = (owner: string): ScheduleOptions => ({ everyMs: DAY, leaseMs: LEASE, owner });
const tick = (owner: string) => runScheduledPayouts(w.t.ctx, stripeMoney(w.t.config.stripe!), instance(owner));
const transfersTo = (account: string) =>
  [...w.stripe.billing.transfers.values()].filter((t) => t.destination === account);
const statuses = async (vendorId: string): Promise<string[]> =>
  (await admin(w.t, 'GET', `/admin/marketplace/sales?vendor_id=${vendorId}&limit=100`))
    .json()
    .sales.map((s: { payout_status: string }) => s.payout_status);

describe('scheduled payouts', () => {
  it('run once per period across instances, on the injected clock', async () => {
    // Mid-day, so that moving by hours stays in the period.
    w.t.clock.set('2027-03-10T06:00:00.000Z');
    const v = await vendorOf(w, { commission: 20 });
    const account = `acct_${v.namespace.replace(/-/g, '')}`;
    const item = await itemOf(w, v, { price_eur: '10' });
    await buy(w, item.marketplace_id, 'inst_sched_1');

    const first = await tick('instance-a');
    expect(first).toMatchObject({ transferred: 1, period_start: new Date('2027-03-10T00:00:00.000Z'), attempts: 1 });
    // The other instance, and the same one again, find the period done.
    expect(await tick('instance-b')).toBeNull();
    expect(await tick('instance-a')).toBeNull();

    await buy(w, item.marketplace_id, 'inst_sched_2');
    w.t.clock.advance(6 * 3_600_000);
    expect(await tick('instance-b')).toBeNull();
    expect(await statuses(v.id)).toEqual(['pending', 'paid']);

    // The next day, whichever instance ticks first pays what came in since.
    w.t.clock.advance(DAY);
    expect(await tick('instance-b')).toMatchObject({ transferred: 1 });
    expect(await tick('instance-a')).toBeNull();
    expect(transfersTo(account)).toHaveLength(2);
    expect(await statuses(v.id)).toEqual(['paid', 'paid']);
    const runs = await admin(w.t, 'GET', '/admin/marketplace/payouts/runs');
    expect(runs.statusCode, runs.body).toBe(200);
    const [latest, before] = runs.json().runs;
    expect(latest).toMatchObject({ period_start: '2027-03-11T00:00:00.000Z', owner: 'instance-b', transferred: 1 });
    expect(before).toMatchObject({ period_start: '2027-03-10T00:00:00.000Z', owner: 'instance-a', attempts: 1 });
    expect(latest.finished_at).not.toBeNull();
  });

  it('a run whose instance died is taken over once its lease ran out, within the same period', async () => {
    w.t.clock.set('2027-04-02T08:00:00.000Z');
    const v = await vendorOf(w, { commission: 10 });
    const account = `acct_${v.namespace.replace(/-/g, '')}`;
    const item = await itemOf(w, v, { price_eur: '30' });
    await buy(w, item.marketplace_id, 'inst_dead_1');

    // Instance "dead" claimed today's run and never finished it.
    const now = w.t.clock.now();
    expect(
      await claimPayoutPeriod(w.t.ctx.db, {
        period_start: new Date('2027-04-02T00:00:00.000Z'),
        owner: 'dead',
        now,
        lease_until: new Date(now.getTime() + LEASE),
      }),
    ).toBeDefined();
    expect(await tick('instance-a')).toBeNull(); // its lease still holds
    expect(await statuses(v.id)).toEqual(['pending']);

    w.t.clock.advance(LEASE + 1);
    expect(await tick('instance-a')).toMatchObject({ transferred: 1, attempts: 2 });
    expect(transfersTo(account)).toHaveLength(1);
    expect(await tick('instance-b')).toBeNull();
  });

  it('the job exists on a marketplace with Stripe unless MARKETPLACE_PAYOUT_EVERY is off', () => {
    const base = { ...w.t.config };
    expect(payoutsJob(base)).toMatchObject({ name: 'marketplace-payouts', everyMs: 60_000, runAtStart: true });
    expect(payoutsJob({ ...base, payoutEveryMs: null })).toBeNull();
    expect(payoutsJob({ ...base, stripe: undefined })).toBeNull();
    expect(payoutsJob({ ...base, role: 'shop' })).toBeNull();
    expect(testConfig({ MARKETPLACE_PAYOUT_EVERY: '12h' }).payoutEveryMs).toBe(12 * 3_600_000);
    expect(testConfig().payoutEveryMs).toBe(DAY);
    expect(() => testConfig({ MARKETPLACE_PAYOUT_EVERY: 'weekly' })).toThrow(/MARKETPLACE_PAYOUT_EVERY/);
  });
});
