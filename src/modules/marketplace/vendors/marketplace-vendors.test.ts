import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import { rows } from '../../../platform/db/database.ts';
import type { JsonObject } from '../../../platform/providers.ts';
import { installMailbox } from '../../auth/auth.testing.ts';
import { MARKETPLACE_ENV, packExample, publish, uniqueSlug, uploadForm } from '../marketplace.testing.ts';
import { mailedVerifyToken, uniqueNamespace } from './vendors.testing.ts';

let t: TestApp;
let sent: JsonObject[];
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
  sent = installMailbox(t);
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const asVendor = (token: string, method: string, url: string, payload?: unknown) =>
  t.inject({
    method: method as 'GET',
    url,
    headers: bearer(token),
    ...(payload ? { payload: payload as object } : {}),
  });

const linkTokenFor = (email: string) => mailedVerifyToken(t, sent, email);

/** Sign-up → emailed link → verify: the vendor and its first token (every scope). */
async function signUp(namespace: string): Promise<{ id: string; token: string; email: string }> {
  const email = `${namespace}@vendors.example`;
  const res = await t.store('POST', '/store/marketplace/vendors', {
    name: namespace,
    email,
    namespace: `@${namespace}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ status: 'verification_sent' });
  const verified = await t.store('POST', '/store/marketplace/vendors/verify', { token: await linkTokenFor(email) });
  expect(verified.statusCode, verified.body).toBe(200);
  const body = verified.json();
  expect(body.vendor).toMatchObject({ status: 'active', namespaces: [`@${namespace}`], email });
  expect(body.token.token).toMatch(/^mvk_/);
  return { id: body.vendor.id, token: body.token.token, email };
}

/** Every row count of the marketplace's tables: a refused request must leave all of them as they were. */
async function marketplaceCounts(): Promise<Record<string, number>> {
  const tables = await rows<{ table_name: string }>(
    t.ctx.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_name like 'marketplace_%' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [r] = await rows<{ n: number | string }>(
      t.ctx.db,
      sql`select count(*) as n from ${sql.identifier(table_name)}`,
    );
    counts[table_name] = Number(r.n);
  }
  return counts;
}

describe('vendor accounts', () => {
  it('signs up with a verified email, then publishes under its own namespace only', async () => {
    const acme = await signUp(uniqueNamespace('acme'));
    const id = uniqueSlug('vnotes');
    const own = await publish(
      t,
      await packExample('order-notes', { id, vendor: acme.email.split('@')[0] }),
      {},
      { token: acme.token },
    );
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().item.marketplace_id).toBe(`@${acme.email.split('@')[0]}/${id}`);

    const before = await marketplaceCounts();
    const foreign = await publish(
      t,
      await packExample('order-notes', { id: uniqueSlug('x'), vendor: 'acme' }),
      {},
      { token: acme.token },
    );
    expect(foreign.statusCode, foreign.body).toBe(403);
    expect(foreign.json().message).toContain('@acme is not one of');
    expect(await marketplaceCounts()).toEqual(before);
  });

  it('refuses a used or unknown link, and a namespace that is taken', async () => {
    const a = await signUp(uniqueNamespace('taken'));
    const again = await t.store('POST', '/store/marketplace/vendors', {
      name: 'x',
      email: 'other@vendors.example',
      namespace: `@${a.email.split('@')[0]}`,
    });
    expect(again.statusCode).toBe(409);
    const bad = await t.store('POST', '/store/marketplace/vendors/verify', { token: 'mvv_not-a-real-token' });
    expect(bad.statusCode).toBe(400);
  });

  it('the operator invites a vendor; the link activates it; suspension stops its tokens', async () => {
    const name = uniqueNamespace('invited');
    const email = `${name}@vendors.example`;
    const invited = await t.admin('POST', '/admin/marketplace/vendors', { name, email, namespaces: [`@${name}`] });
    expect(invited.statusCode, invited.body).toBe(200);
    expect(invited.json().vendor).toMatchObject({ status: 'invited', namespaces: [`@${name}`] });
    const verified = await t.store('POST', '/store/marketplace/vendors/verify', { token: await linkTokenFor(email) });
    expect(verified.statusCode, verified.body).toBe(200);
    const token = verified.json().token.token as string;
    expect((await asVendor(token, 'GET', '/admin/marketplace/vendor')).json().vendor.status).toBe('active');

    const vid = invited.json().vendor.id;
    const listed = await t.admin('GET', '/admin/marketplace/vendors?limit=1000');
    expect(listed.json().vendors.map((x: { id: string }) => x.id)).toContain(vid);
    expect(listed.json().count).toBe(listed.json().vendors.length);
    expect((await t.admin('POST', `/admin/marketplace/vendors/${vid}/suspend`)).statusCode).toBe(200);
    expect((await asVendor(token, 'GET', '/admin/marketplace/vendor')).statusCode).toBe(401);
    // An old link does not bring a suspended vendor back.
    expect((await t.admin('POST', `/admin/marketplace/vendors/${vid}/reinstate`)).statusCode).toBe(200);
    expect((await asVendor(token, 'GET', '/admin/marketplace/vendor')).statusCode).toBe(200);
  });

  it('API tokens: scoped, shown once, revocable', async () => {
    const v = await signUp(uniqueNamespace('tokens'));
    const made = await asVendor(v.token, 'POST', '/admin/marketplace/vendor/tokens', { name: 'ci', scopes: ['read'] });
    expect(made.statusCode, made.body).toBe(200);
    const ci = made.json().token;
    expect(ci.token).toMatch(/^mvk_/);
    const listed = (await asVendor(v.token, 'GET', '/admin/marketplace/vendor/tokens')).json().tokens;
    expect(listed.map((x: { name: string }) => x.name)).toEqual(['first token', 'ci']);
    expect(listed[0].last_used_at).toBe(t.clock.now().toISOString());
    expect(JSON.stringify(listed)).not.toContain(ci.token);

    const slug = v.email.split('@')[0];
    const refused = await publish(
      t,
      await packExample('order-notes', { id: uniqueSlug('ro'), vendor: slug }),
      {},
      { token: ci.token },
    );
    expect(refused.statusCode).toBe(403);
    expect((await asVendor(ci.token, 'GET', '/admin/marketplace/items')).statusCode).toBe(200);

    const revoked = await asVendor(v.token, 'POST', `/admin/marketplace/vendor/tokens/${ci.id}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().token.revoked_at).not.toBeNull();
    expect((await asVendor(ci.token, 'GET', '/admin/marketplace/items')).statusCode).toBe(401);
  });

  it('a vendor token reaches no admin route outside the marketplace', async () => {
    const v = await signUp(uniqueNamespace('outside'));
    for (const url of ['/admin/products', '/admin/users/me', '/admin/plugins', '/admin/api-keys']) {
      expect((await asVendor(v.token, 'GET', url)).statusCode, url).toBe(403);
    }
  });
});

describe('vendor isolation', () => {
  it("every marketplace admin route, walked with a foreign vendor's token: 403 and nothing written", async () => {
    const a = await signUp(uniqueNamespace('owner'));
    const b = await signUp(uniqueNamespace('foreign'));
    const aSlug = a.email.split('@')[0];
    const item = (
      await publish(
        t,
        await packExample('order-notes', { id: uniqueSlug('iso'), vendor: aSlug }),
        {},
        { token: a.token },
      )
    ).json().item;
    const aToken = (await asVendor(a.token, 'GET', '/admin/marketplace/vendor/tokens')).json().tokens[0];

    const ids: Record<string, string> = { ':id': item.id, ':token_id': aToken.id };
    const foreignUpload = uploadForm(await packExample('order-notes', { id: uniqueSlug('iso2'), vendor: aSlug }));
    const routes = t.app.routeTable.filter((r) => r.url.startsWith('/admin/marketplace') && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(15);
    const before = await marketplaceCounts();
    const itemBefore = (await t.admin('GET', `/admin/marketplace/items/${item.id}`)).json();
    const walked: string[] = [];
    for (const r of routes) {
      const url = r.url.replace(/:[a-z_]+/g, (p) => ids[p] ?? p);
      // Its own account and token routes answer for itself (checked below), never for another vendor.
      if (url.startsWith('/admin/marketplace/vendor/') || url === '/admin/marketplace/vendor') continue;
      if (url === '/admin/marketplace/license-issued') continue; // signed by a marketplace, not a vendor route
      // Publishing is walked with a real package under A's namespace, so the refusal is the owner check's.
      const body = r.method === 'GET' ? undefined : url === '/admin/marketplace/items' ? foreignUpload : {};
      const res = await asVendor(b.token, r.method, url, body);
      walked.push(`${r.method} ${url}`);
      if (r.method === 'GET' && url === '/admin/marketplace/items') {
        expect(res.statusCode).toBe(200);
        expect(res.json().items.map((i: { id: string }) => i.id)).not.toContain(item.id);
        continue;
      }
      expect(res.statusCode, `${r.method} ${url}: ${res.body}`).toBe(403);
    }
    // B's own token routes cannot reach A's token.
    expect((await asVendor(b.token, 'POST', `/admin/marketplace/vendor/tokens/${aToken.id}/revoke`)).statusCode).toBe(
      404,
    );
    expect(walked.length).toBeGreaterThan(10);
    expect(await marketplaceCounts()).toEqual(before);
    expect((await t.admin('GET', `/admin/marketplace/items/${item.id}`)).json()).toEqual(itemBefore);
  });
});
