import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../test/app.ts';
import {
  installAndWait,
  packPlugin,
  pluginSlug,
  type TestMarketplace,
  startMarketplaceAndShop,
} from './plugins.testing.ts';

let m: TestMarketplace;
let t: TestApp;
beforeAll(async () => {
  ({ m, t } = await startMarketplaceAndShop());
});
afterAll(() => closeAll(t, m));

/**
 * A version of a widget plugin: `bundle` gives it an admin entry (its text is the bundle),
 * `methods` its `admin_api`; `legacy` leaves `permissions` out (a manifest from before rights).
 */
async function widget(
  id: string,
  version: string,
  opts: { bundle?: string; methods?: string[]; legacy?: boolean } = {},
): Promise<string> {
  const files: Record<string, string> = { 'server/index.js': 'export default { register() {} };' };
  if (opts.bundle) files['admin/index.js'] = opts.bundle;
  const bytes = await packPlugin(
    {
      id,
      version,
      type: 'admin-extension',
      server: 'server/index.js',
      ...(opts.legacy ? {} : { permissions: {} }),
      ...(opts.bundle ? { admin: 'admin/index.js' } : {}),
      ...(opts.methods ? { admin_api: { methods: opts.methods } } : {}),
    },
    files,
  );
  return (await m.publish(bytes)).marketplace_id;
}

const bundleOf = (version: string) =>
  `export default { slot: 'dashboard', title: 'W', render(el) { el.textContent = '${version}'; } };`;
const get = async (id: string) => (await t.admin('GET', `/admin/plugins/${id}`)).json().plugin;
const preview = async (mid: string) => (await t.admin('GET', `/admin/marketplace/feed/${mid}`)).json().product;

/** Asks for `version`, lets the pipeline finish, and returns the row. */
async function update(id: string, version: string) {
  const res = await t.admin('POST', `/admin/plugins/${id}/update`, { version });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.plugins.settled();
  return get(id);
}

async function approve(id: string, version: string) {
  const res = await t.admin('POST', `/admin/plugins/${id}/update/approve`, { version });
  expect(res.statusCode, res.body).toBe(200);
  await t.app.plugins.settled();
  return get(id);
}

describe("an update that widens the admin extension's rights", () => {
  it('adding write methods to admin_api waits for approval; the old bundle, read-only, runs meanwhile', async () => {
    const id = pluginSlug('adm-post');
    const mid = await widget(id, '1.0.0', { bundle: bundleOf('1.0.0') });
    expect((await preview(mid)).permissions.admin_extension).toEqual({ bundle: true, methods: [] });
    const row = await installAndWait(t, mid);
    expect(row.permissions.admin_extension).toEqual({ bundle: true, methods: [] });
    const v1Bundle = row.admin_bundle.sha256;

    await widget(id, '1.0.1', { bundle: bundleOf('1.0.1'), methods: ['POST'] });
    expect((await preview(mid)).permissions.admin_extension).toEqual({ bundle: true, methods: ['POST'] });
    const waiting = await update(row.id, '1.0.1');
    expect(waiting).toMatchObject({ status: 'installed', version: '1.0.0', target_version: null, error: null });
    expect(waiting.pending_update).toMatchObject({
      version: '1.0.1',
      permissions: { admin_extension: { bundle: true, methods: ['POST'] } },
      new_rights: ['admin:POST'],
    });
    // What the panel's bridge reads (manifest.admin_api) and imports (admin_bundle) is still 1.0.0's.
    expect(waiting.manifest.admin_api).toBeUndefined();
    expect(waiting.admin_bundle.sha256).toBe(v1Bundle);
    expect((await t.admin('GET', `/admin/plugins/${row.id}/admin-bundle`)).body).toBe(bundleOf('1.0.0'));

    const live = await approve(row.id, '1.0.1');
    expect(live).toMatchObject({ status: 'installed', version: '1.0.1', pending_update: null });
    expect(live.manifest.admin_api).toEqual({ methods: ['POST'] });
    expect(live.permissions.admin_extension).toEqual({ bundle: true, methods: ['POST'] });
    expect((await t.admin('GET', `/admin/plugins/${row.id}/admin-bundle`)).body).toBe(bundleOf('1.0.1'));
  });

  it.each([
    ['a manifest with permissions', false],
    ['an old manifest without permissions', true],
  ])('adding an admin bundle waits for approval (%s)', async (_what, legacy) => {
    const id = pluginSlug('adm-bundle');
    const mid = await widget(id, '1.0.0', { legacy });
    const row = await installAndWait(t, mid);
    expect(row).toMatchObject({ status: 'installed', admin_bundle: null, permissions_declared: !legacy });
    expect(row.permissions.admin_extension).toEqual({ bundle: false, methods: [] });

    await widget(id, '1.0.1', { legacy, bundle: bundleOf('1.0.1') });
    expect((await preview(mid)).permissions.admin_extension).toEqual({ bundle: true, methods: [] });
    const waiting = await update(row.id, '1.0.1');
    expect(waiting).toMatchObject({ status: 'installed', version: '1.0.0', admin_bundle: null });
    expect(waiting.pending_update.new_rights).toEqual(['admin:bundle']);
    expect((await t.admin('GET', `/admin/plugins/${row.id}/admin-bundle`)).statusCode).toBe(404);

    const live = await approve(row.id, '1.0.1');
    expect(live).toMatchObject({ status: 'installed', version: '1.0.1', pending_update: null });
    expect(live.admin_bundle).not.toBeNull();
    expect((await t.admin('GET', `/admin/plugins/${row.id}/admin-bundle`)).body).toBe(bundleOf('1.0.1'));
  });

  it('a grant stored before admin rights existed keeps what the running version has, and no more', async () => {
    const id = pluginSlug('adm-old-grant');
    const row = await installAndWait(t, await widget(id, '1.0.0', { bundle: bundleOf('1.0.0'), methods: ['POST'] }));
    await t.database.db.execute(
      sql`update plugins set granted_permissions = granted_permissions - 'admin_extension' where id = ${row.id}`,
    );
    await widget(id, '1.0.1', { bundle: bundleOf('1.0.1'), methods: ['POST', 'DELETE'] });
    const waiting = await update(row.id, '1.0.1');
    expect(waiting).toMatchObject({
      version: '1.0.0',
      pending_update: { version: '1.0.1', new_rights: ['admin:DELETE'] },
    });
  });
});
