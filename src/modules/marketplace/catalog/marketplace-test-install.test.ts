import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import type { JsonObject } from '../../../platform/providers.ts';
import { installMailbox } from '../../auth/auth.testing.ts';
import { schemaNameOf } from '../../plugins/raw-db.ts';
import { MARKETPLACE_ENV, packExample, publish, uniqueSlug } from '../marketplace.testing.ts';
import { signUpVendor, uniqueNamespace } from '../vendors/vendors.testing.ts';

/**
 * The review's sandboxed test install, black-box: a vendor uploads, the marketplace installs the
 * version in the plugin sandbox against a throwaway shop and records the `install` check. The
 * vendors are trusted, so a pass would list the version at once: a failure must stop that (and
 * the operator's own upload waits in review until approved over it).
 */
let t: TestApp;
let sent: JsonObject[];
beforeAll(async () => {
  // A hanging plugin is given up after this bound (the default is 30 s); a loaded machine needs
  // seconds to start a good one (6 s was too short at a load of 30), so not much less.
  t = await startTestApp({ env: { ...MARKETPLACE_ENV, MARKETPLACE_REVIEW_INSTALL_MS: '15000' } });
  sent = installMailbox(t);
});
afterAll(() => t.close());

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

async function upload(serverCode?: string) {
  const v = await signUpVendor(t, sent, uniqueNamespace('sbx'));
  expect((await t.admin('POST', `/admin/marketplace/vendors/${v.id}/trust`, {})).statusCode).toBe(200);
  const id = uniqueSlug('sandboxed');
  const files: Record<string, string> = serverCode ? { 'server/index.js': serverCode } : {};
  const res = await publish(
    t,
    await packExample('order-notes', { id, vendor: v.namespace }, files),
    {},
    { token: v.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  const [version] = res.json().item.versions;
  const install = (version.review_checks.checks as Check[]).find((c) => c.name === 'install')!;
  const schemas = await t.database.db.execute(
    sql`select nspname from pg_namespace where nspname = ${schemaNameOf(id)}`,
  );
  return { version, install, id, schemaLeft: (schemas as unknown as { rows: unknown[] }).rows.length > 0 };
}

describe('sandboxed test install at review', () => {
  it('a good plugin installs, runs its migrations, answers its routes and uninstalls cleanly: listed at once', async () => {
    const { version, install, id, schemaLeft } = await upload();
    expect(install.ok, install.detail).toBe(true);
    expect(install.detail).toContain('1 of 1 migration(s) applied');
    expect(install.detail).toContain(`routes GET /admin/plugins/${id}/notes, GET /admin/plugins/${id}/notes/:orderId`);
    expect(install.detail).toContain('answered a ping');
    expect(install.detail).toMatch(/uninstalled$/);
    expect(version.status).toBe('approved');
    expect(schemaLeft).toBe(false);
  });

  it('a plugin that throws at register fails the check with its error, and is not listed', async () => {
    const { version, install, schemaLeft } = await upload(
      `export default { register() { throw new Error('no API key configured'); } };`,
    );
    expect(install.ok).toBe(false);
    expect(install.detail).toMatch(/^Sandboxed test install: register failed: .*no API key configured/);
    expect(version.status).toBe('rejected');
    expect(version.review_reason).toContain('install (Sandboxed test install: register failed');
    expect(schemaLeft).toBe(false);
  });

  it("the operator's upload that fails the test install waits in review until approved over it", async () => {
    const id = uniqueSlug('opsandbox');
    const res = await publish(
      t,
      await packExample(
        'order-notes',
        { id },
        {
          'server/index.js': `export default { register() { throw new Error('no API key configured'); } };`,
        },
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json().item;
    const [version] = item.versions;
    const install = (version.review_checks.checks as Check[]).find((c) => c.name === 'install')!;
    expect(install.ok).toBe(false);
    expect(version.status).toBe('in_review');
    expect(version.review_reason).toContain('install (Sandboxed test install: register failed');
    expect(
      (await t.inject({ method: 'GET', url: `/store/marketplace/download/@acme/${id}/1.0.0` })).statusCode,
    ).not.toBe(200);

    const url = `/admin/marketplace/items/${item.id}/versions/${version.id}/approve`;
    const refused = await t.admin('POST', url, {});
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toContain('failed its automatic checks (install)');
    const approved = await t.admin('POST', url, { override: true, reason: 'Needs its API key; shops configure it' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().item.versions[0].status).toBe('approved');
    expect((await t.inject({ method: 'GET', url: `/store/marketplace/download/@acme/${id}/1.0.0` })).statusCode).toBe(
      200,
    );
  });

  it('a plugin that hangs in register is given up at the time bound and fails', { timeout: 90_000 }, async () => {
    const { version, install } = await upload(`export default { register() { for (;;) {} } };`);
    expect(install.ok).toBe(false);
    expect(install.detail).toMatch(/^Sandboxed test install: register did not finish in time/);
    expect(version.status).toBe('rejected');
  });

  it('a plugin that writes outside its schema fails, even when it swallows the refusal', async () => {
    const { version, install } = await upload(`export default {
      async register(ctx) {
        try { await ctx.db.query("insert into public.users (id, email) values ('usr_evil', 'evil@example.com')"); } catch {}
        ctx.routes.admin('GET', '/ok', () => ({ ok: true }));
      },
    };`);
    expect(install.ok).toBe(false);
    expect(install.detail).toMatch(
      /^Sandboxed test install: register wrote outside its schema: permission denied for table users/,
    );
    expect(version.status).toBe('rejected');
    const rows = await t.database.db.execute(sql`select id from users where id = 'usr_evil'`);
    expect((rows as unknown as { rows: unknown[] }).rows).toEqual([]);
  });

  it('its GET /health is asked: a 500 fails the smoke, an answer passes', async () => {
    const failing = await upload(`export default {
      register(ctx) { ctx.routes.admin('GET', '/health', () => { throw new Error('database not ready'); }); },
    };`);
    expect(failing.install.ok).toBe(false);
    expect(failing.install.detail).toMatch(/health GET \/admin\/plugins\/.*\/health failed: database not ready/);
    const healthy = await upload(`export default {
      register(ctx) { ctx.routes.admin('GET', '/health', async () => ({ notes: (await ctx.db.query('select count(*)::int as n from order_notes'))[0].n })); },
    };`);
    expect(healthy.install.ok, healthy.install.detail).toBe(true);
    expect(healthy.install.detail).toContain(`GET /admin/plugins/${healthy.id}/health answered 200`);
  });
});
