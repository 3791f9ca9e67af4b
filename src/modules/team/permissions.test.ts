import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { PUBLIC, SELF } from '../../platform/http/permissions.ts';
import { customRole, memberWithRole } from './team.testing.ts';

/**
 * Every admin route declares its permission (x-permission in /openapi.json), and a role without
 * it gets 403 `{ type, message }` before anything runs: the walk covers every route, plugin
 * admin routes included, and the database is the same afterwards.
 */
let t: TestApp;
let operations: { method: string; path: string; permission: string | undefined }[];
beforeAll(async () => {
  t = await startTestApp();
  const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
  operations = Object.entries(doc.paths as Record<string, Record<string, { 'x-permission'?: string }>>)
    .filter(([path]) => path.startsWith('/admin'))
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        permission: op['x-permission'],
      })),
    );
});
afterAll(() => t.close());

/** Row count and newest update of every table: what a write would change. */
async function fingerprint(): Promise<string> {
  const tables = await rows<{ table_name: string; stamped: boolean }>(
    t.database.db,
    sql`select table_name, exists (select 1 from information_schema.columns c where c.table_schema = 'public'
          and c.table_name = t.table_name and c.column_name = 'updated_at') as stamped
        from information_schema.tables t where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const parts = await Promise.all(
    tables.map(async ({ table_name, stamped }) => {
      const [r] = await rows<{ n: number; u: string | null }>(
        t.database.db,
        sql.raw(`select count(*)::int as n, ${stamped ? 'max(updated_at)::text' : 'null'} as u from "${table_name}"`),
      );
      return `${table_name}:${r.n}:${r.u}`;
    }),
  );
  return parts.join('\n');
}

const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'x_1').replace(/\*$/, 'x');

describe('route permissions', () => {
  it('every admin route in /openapi.json declares x-permission (none fall back to owners only)', () => {
    expect(operations.length).toBeGreaterThan(100);
    const undeclared = operations.filter((o) => !o.permission).map((o) => `${o.method} ${o.path}`);
    // Each listed route needs adminResource(...) on its module or config.permission on the route.
    expect(undeclared).toEqual([]);
  });

  it('refunds and cancels take orders:refund; the profile is anyone’s; invites are accepted without sign-in', () => {
    const of = (method: string, path: string) =>
      operations.find((o) => o.method === method && o.path === path)?.permission;
    expect(of('POST', '/admin/orders/{id}/refunds')).toBe('orders:refund');
    expect(of('POST', '/admin/payments/{id}/refund')).toBe('orders:refund');
    expect(of('POST', '/admin/orders/{id}/cancel')).toBe('orders:refund');
    expect(of('GET', '/admin/orders')).toBe('orders:read');
    expect(of('POST', '/admin/products')).toBe('products:write');
    expect(of('GET', '/admin/users/me')).toBe(SELF);
    expect(of('POST', '/admin/invites/accept')).toBe(PUBLIC);
    expect(of('POST', '/admin/plugins/{manifestId}/{*}')).toBe('plugins:write');
  });

  it('a role lacking a route’s permission gets 403 { type, message } on every admin route, and nothing is written', async () => {
    const declared = [...new Set(operations.map((o) => o.permission!).filter((p) => p !== SELF && p !== PUBLIC))];
    // Per permission, a member whose role holds every other declared permission but that one.
    const tokens = new Map<string, string>();
    for (const permission of declared) {
      const role = await customRole(
        t,
        declared.filter((p) => p !== permission),
      );
      tokens.set(permission, (await memberWithRole(t, role)).token);
    }
    const nobody = (await memberWithRole(t, await customRole(t, []))).token;
    const before = await fingerprint();

    const wrong: string[] = [];
    for (const op of operations) {
      if (op.permission === SELF || op.permission === PUBLIC) continue;
      for (const token of [tokens.get(op.permission!)!, nobody]) {
        const res = await t.inject({
          method: op.method as 'GET',
          url: concrete(op.path),
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: op.method === 'GET' || op.method === 'HEAD' ? undefined : '{}',
        });
        const body = res.statusCode === 403 ? res.json() : null;
        if (res.statusCode !== 403 || body.type !== 'forbidden' || typeof body.message !== 'string')
          wrong.push(`${op.method} ${op.path} (${op.permission}): ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await fingerprint()).toBe(before);
  });

  it('the built-in roles: viewers read, fulfilment cannot refund, support can refund but not edit products', async () => {
    const viewer = (await memberWithRole(t, 'viewer')).token;
    const fulfilment = (await memberWithRole(t, 'fulfilment')).token;
    const support = (await memberWithRole(t, 'support')).token;
    const status = async (token: string, method: string, url: string) =>
      (await t.admin(method, url, method === 'GET' ? undefined : {}, { token })).statusCode;
    expect(await status(viewer, 'GET', '/admin/orders')).toBe(200);
    expect(await status(viewer, 'POST', '/admin/products')).toBe(403);
    expect(await status(fulfilment, 'GET', '/admin/orders')).toBe(200);
    expect(await status(fulfilment, 'POST', '/admin/orders/order_x/refunds')).toBe(403);
    expect(await status(fulfilment, 'GET', '/admin/webhooks')).toBe(403);
    expect(await status(support, 'POST', '/admin/orders/order_x/refunds')).not.toBe(403);
    expect(await status(support, 'POST', '/admin/products')).toBe(403);
    expect(await status(support, 'GET', '/admin/customers')).toBe(200);
  });

  it('a secret API key acts as admin: every declared permission', async () => {
    const res = await t.admin('POST', '/admin/api-keys', { title: 'walk', type: 'secret' });
    expect(res.statusCode, res.body).toBe(200);
    const basic = `Basic ${Buffer.from(`${res.json().api_key.token}:`).toString('base64')}`;
    const listed = await t.inject({ method: 'GET', url: '/admin/orders', headers: { authorization: basic } });
    expect(listed.statusCode).toBe(200);
  });
});
