import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { installAndWait, packPlugin, pluginSlug, startPluginShop } from '../plugins/plugins.testing.ts';
import { schemaNameOf } from '../plugins/raw-db.ts';
import { customRole, memberWithRole } from '../team/team.testing.ts';
import { inTx } from '../../platform/context.ts';
import { createUser } from '../auth/service.ts';
import { bodyChanges } from './redact.ts';
import { cliAuditScope } from './scope.ts';
import { auditRetentionJob } from './retention.ts';

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  // A loaded machine may take more than the harness's 500 ms for a plugin's first query.
  ({ t, env } = await startPluginShop(null, { PLUGIN_ROUTE_TIMEOUT_MS: '10000' }));
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;

async function ok(method: string, url: string, body?: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await t.admin(method, url, body, { headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const entriesOf = async (query: string) => (await ok('GET', `/admin/audit-log?${query}`)).audit_entries;

/** A stocked level: item, location, 10 units; the item's id and the location's. */
async function stockedLevel() {
  const item = (await ok('POST', '/admin/inventory-items', { sku: `AUD-${Date.now()}-${Math.random()}` }))
    .inventory_item;
  const location = (await ok('POST', '/admin/stock-locations', { name: 'Audit depot' })).stock_location;
  await ok('POST', `/admin/inventory-items/${item.id}/location-levels`, {
    location_id: location.id,
    stocked_quantity: 10,
  });
  return { itemId: item.id as string, locationId: location.id as string };
}

describe('audit log', () => {
  it('records an admin write in its transaction: who, what, before and after, from where', async () => {
    const { itemId, locationId } = await stockedLevel();
    await ok(
      'POST',
      `/admin/inventory-items/${itemId}/location-levels/${locationId}`,
      { stocked_quantity: 7 },
      { 'user-agent': 'audit-test/1' },
    );
    const [entry] = await entriesOf(`resource=inventory&resource_id=${itemId}&limit=1`);
    expect(entry).toMatchObject({
      actor_type: 'user',
      actor_role: 'owner',
      method: 'POST',
      route: '/admin/inventory-items/:id/location-levels/:location_id',
      path: `/admin/inventory-items/${itemId}/location-levels/${locationId}`,
      resource: 'inventory',
      action: 'write',
      resource_id: itemId,
      fields: ['stocked_quantity'],
      changes: { stocked_quantity: 7 },
      in_transaction: true,
      user_agent: 'audit-test/1',
      before_after: [{ table: 'inventory_levels', column: 'stocked_quantity', before: 10, after: 7 }],
    });
    expect(entry.actor_id).toMatch(/^user_/);
    expect(entry.ip).toBeTruthy();
  });

  it('files a create under the id of what it made (in a transaction, outside one, from the CLI)', async () => {
    const product = (
      await ok('POST', '/admin/products', { title: 'Audited hat', options: [{ title: 'Size', values: ['M'] }] })
    ).product;
    const location = (await ok('POST', '/admin/stock-locations', { name: 'Audited depot' })).stock_location;
    const role = await customRole(t, ['products:read']);
    const created = async (route: string, id: string) => {
      const entries = await entriesOf(`resource_id=${id}`);
      expect(entries.map((e: { route: string }) => e.route)).toContain(route);
      return entries.find((e: { route: string }) => e.route === route);
    };
    expect(await created('/admin/products', product.id)).toMatchObject({
      resource: 'products',
      resource_id: product.id,
    });
    expect(await created('/admin/stock-locations', location.id)).toMatchObject({ resource_id: location.id });
    expect(await created('/admin/roles', role)).toMatchObject({ resource_id: role });
    // A write under an id keeps the path's id, so the product's own entries list both.
    await ok('POST', `/admin/products/${product.id}`, { title: 'Audited cap' });
    expect((await entriesOf(`resource_id=${product.id}`)).map((e: { route: string }) => e.route)).toEqual([
      '/admin/products/:id',
      '/admin/products',
    ]);
  });

  it('records nothing for reads or refused writes', async () => {
    const viewer = await memberWithRole(t, 'viewer', 'auditviewer');
    const before = (await ok('GET', '/admin/audit-log?limit=1')).count;
    await t.admin('GET', '/admin/stock-locations');
    const refused = await t.admin('POST', '/admin/stock-locations', { name: 'x' }, { token: viewer.token });
    expect(refused.statusCode).toBe(403);
    expect((await ok('GET', '/admin/audit-log?limit=1')).count).toBe(before);
  });

  it('records writes made outside a transaction right after, and a secret only by name', async () => {
    const role = await customRole(t, ['orders:read']);
    const [entry] = await entriesOf(`resource=team&limit=1`);
    expect(entry).toMatchObject({ route: '/admin/roles', changes: { permissions: ['orders:read'] } });
    expect(typeof entry.in_transaction).toBe('boolean');
    expect(role).toMatch(/^role_/);
    const { fields, changes } = bodyChanges({
      password: 'hunter2',
      config: { api_key: 'sk_live', region: 'eu' },
      prices: [{ amount: 5, token: 'x' }],
    });
    expect(fields).toEqual(['password', 'config', 'config.api_key', 'config.region', 'prices']);
    expect(changes).toEqual({ prices: [{ amount: 5, token: '[redacted]' }] });
    expect(JSON.stringify(changes)).not.toContain('hunter2');
  });

  it('filters by actor, resource, action and dates; pages without counting when count=false', async () => {
    const member = await memberWithRole(t, 'admin', 'auditadmin');
    await t.admin('POST', '/admin/stock-locations', { name: 'By member' }, { token: member.token });
    await t.admin('POST', '/admin/stock-locations', { name: 'By member 2' }, { token: member.token });
    const page = await ok('GET', `/admin/audit-log?actor_id=${member.id}&count=false&limit=1`);
    expect(page).toMatchObject({ count: null, limit: 1, offset: 0 });
    expect(page.audit_entries).toHaveLength(1);
    const all = await ok('GET', `/admin/audit-log?actor_id=${member.id}&resource=inventory&action=write`);
    expect(all.count).toBe(2);
    expect(all.audit_entries.map((e: { actor_role: string }) => e.actor_role)).toEqual(['admin', 'admin']);
    const future = new Date(t.clock.now().getTime() + DAY).toISOString();
    expect((await ok('GET', `/admin/audit-log?actor_id=${member.id}&created_at[gte]=${future}`)).count).toBe(0);
    const bad = await t.admin('GET', '/admin/audit-log?created_at[gte]=yesterday');
    expect(bad.statusCode).toBe(400);
  });

  it("records the CLI's user create in its transaction, the password by name only", async () => {
    const input = { email: `cli-${Date.now()}@example.com`, password: 'cli-password-1', role: 'viewer' };
    const audit = cliAuditScope(t.clock, 'user create', input, { resource: 'team' });
    const user = await inTx({ ...t.ctx, audit }, (tctx) => createUser(tctx, input));
    const [entry] = await entriesOf('method=CLI&limit=1');
    expect(entry).toMatchObject({
      actor_type: 'cli',
      resource_id: user.id,
      route: 'emporium user create',
      resource: 'team',
      fields: ['email', 'password', 'role'],
      changes: { role: 'viewer' },
      in_transaction: true,
    });
    expect(JSON.stringify(entry)).not.toContain('cli-password-1');
  });

  it('is read with the audit:read permission', async () => {
    const noAudit = await memberWithRole(t, await customRole(t, ['orders:read']), 'noaudit');
    expect((await t.admin('GET', '/admin/audit-log', undefined, { token: noAudit.token })).statusCode).toBe(403);
    const reader = await memberWithRole(t, await customRole(t, ['audit:read']), 'auditor');
    expect((await t.admin('GET', '/admin/audit-log', undefined, { token: reader.token })).statusCode).toBe(200);
  });

  it('cannot be changed; only the retention job deletes, after AUDIT_RETENTION_DAYS (365 unless told)', async () => {
    expect(testConfig().auditRetentionDays).toBe(365);
    expect(auditRetentionJob(0)).toBeNull();
    await expect(t.database.db.execute(sql`update audit_log set actor_id = 'someone'`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`truncate audit_log`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from audit_changes`)).rejects.toThrow();
    const total = (await ok('GET', '/admin/audit-log?limit=1')).count;
    expect(total).toBeGreaterThan(0);
    const job = auditRetentionJob(365, 2)!;
    expect(await job.run(t.ctx)).toBe(0);
    const yearLater = new Date(t.clock.now().getTime() + 366 * DAY);
    expect(await job.run({ ...t.ctx, clock: { now: () => yearLater } })).toBe(total);
    const [{ n }] = await rows<{ n: number }>(
      t.database.db,
      sql`select (select count(*) from audit_log) + (select count(*) from audit_changes) as n`,
    );
    expect(Number(n)).toBe(0);
  });
});

/** A plugin whose admin route runs whatever SQL it is sent, answering the rows or the error. */
const SQL_RUNNER = `export default { register(ctx) {
  ctx.routes.admin('POST', '/sql', async (req) => {
    try { return { rows: await ctx.db.query(req.body.sql) }; }
    catch (err) { return { error: { code: err.code ?? null, message: String(err.message) } }; }
  });
} };`;

describe('a plugin and the audit log', () => {
  it("is refused the table by PostgreSQL, and its admin route's writes are recorded", async () => {
    const id = pluginSlug('audit-sql');
    const bytes = await packPlugin(
      {
        id,
        vendor: 'tests',
        server: 'server/index.js',
        migrations: 'migrations',
        permissions: { routes: { admin: true } },
      },
      { 'server/index.js': SQL_RUNNER, 'migrations/0001.sql': 'create table notes (x int);' },
    );
    writeFileSync(path.join(env.PLUGINS_DIR, `${id}.tgz`), bytes);
    expect((await installAndWait(t, `@tests/${id}`)).status).toBe('installed');
    const run = async (text: string) => (await ok('POST', `/admin/plugins/${id}/sql`, { sql: text })).error;
    for (const text of [
      'select * from public.audit_log',
      "insert into public.audit_log (id) values ('audit_forged')",
      'delete from public.audit_log',
      'update public.audit_changes set after = null',
    ])
      expect(await run(text), text).toMatchObject({
        code: '42501',
        message: expect.stringMatching(/^permission denied/),
      });
    expect(await run(`insert into ${schemaNameOf(id)}.notes values (1)`)).toBeUndefined();
    const [entry] = await entriesOf('limit=1');
    expect(entry).toMatchObject({ method: 'POST', path: `/admin/plugins/${id}/sql`, in_transaction: false });
  });
});
