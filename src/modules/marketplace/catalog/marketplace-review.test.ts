import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import type { JsonObject } from '../../../platform/providers.ts';
import { installMailbox } from '../../auth/auth.testing.ts';
import { MARKETPLACE_ENV, packExample, publish, uniqueSlug } from '../marketplace.testing.ts';
import { signUpVendor, uniqueNamespace } from '../vendors/vendors.testing.ts';

let t: TestApp;
let sent: JsonObject[];
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
  sent = installMailbox(t);
});
afterAll(() => t.close());

const get = (url: string) => t.inject({ method: 'GET', url });
const asVendor = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
const updatesFor = (marketplaceId: string, version: string) =>
  get(`/store/marketplace/updates?versions=${encodeURIComponent(JSON.stringify({ [marketplaceId]: version }))}`);

/** Where a version can be seen by a shop: feed search, item page, download descriptor. */
async function visibility(marketplaceId: string, version: string) {
  const feed = (await get(`/store/marketplace/feed?search=${encodeURIComponent(marketplaceId)}`)).json();
  const page = await get(`/store/marketplace/feed/${marketplaceId}`);
  const download = await get(`/store/marketplace/download/${marketplaceId}/${version}`);
  return {
    inFeed: feed.products.some((p: { marketplace_id: string }) => p.marketplace_id === marketplaceId),
    onPage:
      page.statusCode === 200 && page.json().product.versions.some((v: { version: string }) => v.version === version),
    downloadable: download.statusCode === 200,
  };
}

const hidden = { inFeed: false, onPage: false, downloadable: false };

/** Uploads, as vendor `v`, the order-notes example with a migration the SQL guard refuses; its one version. */
async function publishRefusedSql(v: { namespace: string; token: string }, id: string) {
  const res = await publish(
    t,
    await packExample('order-notes', { id, vendor: v.namespace }, { 'migrations/0001_init.sql': 'set role postgres;' }),
    {},
    { token: v.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().item.versions[0];
}

describe('review before listing', () => {
  it("a vendor's version waits in review, invisible to the feed, downloads and updates, until approved", async () => {
    const v = await signUpVendor(t, sent, uniqueNamespace('rev'));
    const id = uniqueSlug('reviewed');
    const mid = `@${v.namespace}/${id}`;
    const res = await publish(t, await packExample('order-notes', { id, vendor: v.namespace }), {}, { token: v.token });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json().item;
    const [first] = item.versions;
    expect(first.status).toBe('in_review');
    expect(item.version).toBeNull();
    expect(first.review_checks.checks.map((c: { name: string; ok: boolean }) => [c.name, c.ok])).toEqual([
      ['manifest', true],
      ['permissions', true],
      ['size', true],
      ['sql', true],
      ['install', true],
    ]);
    expect(first.review_checks.permissions).toContain("Reads the shop's orders");
    expect(await visibility(mid, '1.0.0')).toEqual(hidden);

    // Only the operator decides.
    const approveUrl = `/admin/marketplace/items/${item.id}/versions/${first.id}/approve`;
    expect((await asVendor(v.token, 'POST', approveUrl, {})).statusCode).toBe(403);
    const approved = await t.admin('POST', approveUrl, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().item.versions[0]).toMatchObject({ status: 'approved' });
    expect(await visibility(mid, '1.0.0')).toEqual({ inFeed: true, onPage: true, downloadable: true });
    expect((await t.admin('POST', approveUrl, {})).statusCode).toBe(409);

    // 1.1.0 in review: the feed keeps 1.0.0 and updates offer nothing.
    const next = await publish(
      t,
      await packExample('order-notes', { id, vendor: v.namespace, version: '1.1.0' }),
      {},
      { token: v.token },
    );
    expect(next.statusCode, next.body).toBe(200);
    const second = next.json().item.versions[0];
    expect(second).toMatchObject({ version: '1.1.0', status: 'in_review' });
    expect((await updatesFor(mid, '1.0.0')).json().updates).toEqual([]);
    expect((await get(`/store/marketplace/feed/${mid}`)).json().product.version).toBe('1.0.0');
    expect((await visibility(mid, '1.1.0')).downloadable).toBe(false);

    // Rejected, with a reason its vendor reads; still invisible.
    const rejectUrl = `/admin/marketplace/items/${item.id}/versions/${second.id}/reject`;
    expect((await t.admin('POST', rejectUrl, {})).statusCode).toBe(400);
    const rejected = await t.admin('POST', rejectUrl, { reason: 'Sends order data to an undeclared host' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const seen = (await asVendor(v.token, 'GET', `/admin/marketplace/items/${item.id}`)).json().item.versions[0];
    expect(seen).toMatchObject({ status: 'rejected', review_reason: 'Sends order data to an undeclared host' });
    expect((await updatesFor(mid, '1.0.0')).json().updates).toEqual([]);
    expect((await visibility(mid, '1.1.0')).onPage).toBe(false);
    expect((await visibility(mid, '1.1.0')).downloadable).toBe(false);
  });

  it('a migration the SQL guard refuses is rejected at upload, with the reason', async () => {
    const v = await signUpVendor(t, sent, uniqueNamespace('sql'));
    const id = uniqueSlug('badsql');
    const version = await publishRefusedSql(v, id);
    expect(version.status).toBe('rejected');
    expect(version.review_reason).toMatch(/^Automatic checks failed: sql \(0001_init\.sql: Plugin SQL refused/);
    expect(await visibility(`@${v.namespace}/${id}`, '1.0.0')).toEqual(hidden);
  });

  it("a trusted vendor's version that passes the checks is approved at once; the operator's too", async () => {
    const v = await signUpVendor(t, sent, uniqueNamespace('trust'));
    const trusted = await t.admin('POST', `/admin/marketplace/vendors/${v.id}/trust`, {});
    expect(trusted.statusCode, trusted.body).toBe(200);
    expect(trusted.json().vendor.trusted).toBe(true);
    const id = uniqueSlug('trusted');
    const res = await publish(t, await packExample('order-notes', { id, vendor: v.namespace }), {}, { token: v.token });
    expect(res.json().item.versions[0].status).toBe('approved');
    expect(await visibility(`@${v.namespace}/${id}`, '1.0.0')).toEqual({
      inFeed: true,
      onPage: true,
      downloadable: true,
    });

    const opId = uniqueSlug('operator');
    const op = await publish(t, await packExample('order-notes', { id: opId }));
    expect(op.json().item.versions[0]).toMatchObject({ status: 'approved', review_reason: null });
  });

  it("the operator's upload that fails a check waits in review, listed only when approved over its failed checks", async () => {
    const id = uniqueSlug('opbad');
    const mid = `@acme/${id}`;
    const res = await publish(
      t,
      await packExample('order-notes', { id }, { 'migrations/0001_init.sql': 'set role postgres;' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json().item;
    const [version] = item.versions;
    expect(version.status).toBe('in_review');
    expect(version.reviewed_at).toBeNull();
    expect(version.review_reason).toMatch(/^Automatic checks failed: sql \(0001_init\.sql: Plugin SQL refused/);
    expect(
      version.review_checks.checks.filter((c: { ok: boolean }) => !c.ok).map((c: { name: string }) => c.name),
    ).toEqual(['sql', 'install']);
    expect(item.version).toBeNull();
    expect(await visibility(mid, '1.0.0')).toEqual(hidden);

    // A plain approval, or an override without a reason, is refused: nothing changes.
    const approveUrl = `/admin/marketplace/items/${item.id}/versions/${version.id}/approve`;
    for (const body of [{}, { reason: 'looks fine' }, { override: true }, { override: true, reason: ' ' }]) {
      const refused = await t.admin('POST', approveUrl, body);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'marketplace_review_override_required' });
      expect(refused.json().message).toContain('failed its automatic checks (sql, install)');
    }
    expect(await visibility(mid, '1.0.0')).toEqual(hidden);
    expect((await t.admin('GET', `/admin/marketplace/items/${item.id}`)).json().item.versions[0].status).toBe(
      'in_review',
    );

    const approved = await t.admin('POST', approveUrl, {
      override: true,
      reason: 'The migration is a fixture of the SQL guard tests',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().item.versions[0]).toMatchObject({
      status: 'approved',
      review_reason: 'The migration is a fixture of the SQL guard tests',
    });
    expect(
      approved.json().item.versions[0].review_checks.checks.find((c: { name: string }) => c.name === 'sql').ok,
    ).toBe(false);
    expect(await visibility(mid, '1.0.0')).toEqual({ inFeed: true, onPage: true, downloadable: true });
  });

  it("a trusted vendor's version that fails a check is rejected, never listed", async () => {
    const v = await signUpVendor(t, sent, uniqueNamespace('tbad'));
    expect((await t.admin('POST', `/admin/marketplace/vendors/${v.id}/trust`, {})).statusCode).toBe(200);
    const id = uniqueSlug('trustedbad');
    const version = await publishRefusedSql(v, id);
    expect(version.status).toBe('rejected');
    expect(version.review_reason).toMatch(/^Automatic checks failed: sql/);
    expect(await visibility(`@${v.namespace}/${id}`, '1.0.0')).toEqual(hidden);
  });
});
