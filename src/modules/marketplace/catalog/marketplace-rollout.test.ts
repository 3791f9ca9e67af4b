import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import type { JsonObject } from '../../../platform/providers.ts';
import { installMailbox } from '../../auth/auth.testing.ts';
import { MARKETPLACE_ENV, packExample, publish, uniqueSlug } from '../marketplace.testing.ts';
import { signUpVendor, uniqueNamespace } from '../vendors/vendors.testing.ts';
import { rolloutBucket } from './rollout.ts';

let t: TestApp;
let sent: JsonObject[];
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
  sent = installMailbox(t);
});
afterAll(() => t.close());

const instances = Array.from({ length: 100 }, (_, i) => `inst_${i.toString(16).padStart(8, '0')}_${i * 7919}`);
const get = (url: string) => t.inject({ method: 'GET', url });
const updatesFor = (mid: string, instance?: string) =>
  get(
    `/store/marketplace/updates?versions=${encodeURIComponent(JSON.stringify({ [mid]: '1.0.0' }))}${instance ? `&instance_id=${instance}` : ''}`,
  );

async function offeredShare(mid: string): Promise<string[]> {
  const offered: string[] = [];
  for (const i of instances) {
    const res = await updatesFor(mid, i);
    expect(res.statusCode, res.body).toBe(200);
    if (res.json().updates.some((u: { latest: string }) => u.latest === '1.1.0')) offered.push(i);
  }
  return offered;
}

describe('staged rollouts', () => {
  it('spreads instances evenly over the 100 buckets (fixed ids, so the counts are the same every run)', () => {
    const counts = new Array(100).fill(0);
    for (let i = 0; i < 20_000; i++) counts[rolloutBucket('mp_fixed_item', `inst_${i}`)]++;
    // 200 per bucket expected; a sha256 bucket stays well inside ±35 % on 20,000 ids.
    expect(Math.min(...counts)).toBeGreaterThan(130);
    expect(Math.max(...counts)).toBeLessThan(270);
    const under10 = counts.slice(0, 10).reduce((a, b) => a + b, 0);
    expect(under10).toBeGreaterThan(1_800);
    expect(under10).toBeLessThan(2_200);
    // And the 100 simulated instances of the end-to-end test, on this fixed item: within a few points.
    const share = (pct: number) => instances.filter((i) => rolloutBucket('mp_fixed_item', i) < pct).length;
    expect(Math.abs(share(10) - 10)).toBeLessThanOrEqual(6);
    expect(Math.abs(share(50) - 50)).toBeLessThanOrEqual(10);
  });

  it('offers a version to its percentage of 100 instances by a stable bucket; raising it only adds shops; halting offers it to none', async () => {
    const id = uniqueSlug('roll');
    const first = await publish(t, await packExample('order-notes', { id }));
    const mid = first.json().item.marketplace_id;
    const second = await publish(t, await packExample('order-notes', { id, version: '1.1.0' }), {
      rollout_percent: '10',
    });
    expect(second.statusCode, second.body).toBe(200);
    const item = second.json().item;
    const v11 = item.versions.find((v: { version: string }) => v.version === '1.1.0');
    expect(v11.rollout_percent).toBe(10);

    // The item id is random, so how many of these 100 fall under 10 % varies from run to run;
    // the share itself is checked on a fixed id below. Here: exactly the instances whose bucket is in.
    const at10 = await offeredShare(mid);
    expect(at10).toEqual(instances.filter((i) => rolloutBucket(mid, i) < 10));
    expect(at10.length).toBeGreaterThan(0);
    // No instance id: only what is fully rolled out.
    expect((await updatesFor(mid)).json().updates).toEqual([]);
    // The feed agrees: an instance inside sees 1.1.0, one outside 1.0.0.
    const outside = instances.find((i) => !at10.includes(i))!;
    const feedVersion = async (i: string) =>
      (await get(`/store/marketplace/feed/${mid}?instance_id=${i}`)).json().product.version;
    expect(await feedVersion(at10[0])).toBe('1.1.0');
    expect(await feedVersion(outside)).toBe('1.0.0');

    const rollout = (body: object) =>
      t.admin('POST', `/admin/marketplace/items/${item.id}/versions/${v11.id}/rollout`, body);
    expect((await rollout({ rollout_percent: 50 })).statusCode).toBe(200);
    const at50 = await offeredShare(mid);
    expect(at50).toEqual(instances.filter((i) => rolloutBucket(mid, i) < 50));
    expect(at10.every((i) => at50.includes(i))).toBe(true);

    const halted = await rollout({ halted: true });
    expect(halted.json().item.versions[0].rollout_halted_at).not.toBeNull();
    expect(await offeredShare(mid)).toEqual([]);
    await rollout({ halted: false, rollout_percent: 100 });
    expect((await offeredShare(mid)).length).toBe(100);
    expect((await updatesFor(mid)).json().updates).toHaveLength(1);
  });

  it("refuses a bad percentage and another vendor's item", async () => {
    const v = await signUpVendor(t, sent, uniqueNamespace('rollv'));
    const id = uniqueSlug('theirs');
    const res = await publish(t, await packExample('order-notes', { id }));
    const item = res.json().item;
    const url = `/admin/marketplace/items/${item.id}/versions/${item.versions[0].id}/rollout`;
    expect((await t.admin('POST', url, { rollout_percent: 101 })).statusCode).toBe(400);
    expect((await t.admin('POST', url, {})).statusCode).toBe(400);
    const foreign = await t.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${v.token}` },
      payload: { rollout_percent: 5 },
    });
    expect(foreign.statusCode).toBe(403);
    expect((await t.admin('GET', `/admin/marketplace/items/${item.id}`)).json().item.versions[0].rollout_percent).toBe(
      100,
    );
    const badForm = await publish(t, await packExample('order-notes', { id, version: '1.2.0' }), {
      rollout_percent: 'x',
    });
    expect(badForm.statusCode).toBe(400);
  });
});
