import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../test/app.ts';
import { auditMarketplace } from '../../cli/marketplace-audit.ts';
import { ensureSigningKey, signedText, signText } from '../marketplace/keys/signing-keys.ts';
import {
  installAndWait,
  packPlugin,
  pluginSlug,
  type TestMarketplace,
  startMarketplaceAndShop,
} from '../plugins/plugins.testing.ts';
import { readPackage } from '../../plugin-package/read-package.ts';
import { pollLogHead } from './log-check.ts';

let m: TestMarketplace;
let t: TestApp;
beforeAll(async () => {
  ({ m, t } = await startMarketplaceAndShop());
}, 240_000);
afterAll(() => closeAll(t, m));

const SERVER = `export default { register(ctx) { ctx.routes.admin('GET', '/alive', () => ({ alive: true })); } };`;
const SHOP = 'http://shop.test';

/** fetch for the audit: the marketplace over its socket, the shop through inject. */
const auditFetch: typeof fetch = async (input, init) => {
  const url = String(input);
  if (!url.startsWith(SHOP)) return fetch(input, init);
  const res = await t.app.inject({
    method: 'GET',
    url: url.slice(SHOP.length),
    headers: init?.headers as Record<string, string>,
  });
  return new Response(res.body, { status: res.statusCode });
};
const audit = () => auditMarketplace({ marketplace: m.url, shop: SHOP, token: t.adminToken, fetchImpl: auditFetch });

async function pack(id: string, marker = 'a') {
  return packPlugin(
    { id, server: 'server/index.js', permissions: { routes: { admin: true } } },
    { 'server/index.js': `${SERVER}\n// ${marker}` },
  );
}

async function publishNew(): Promise<{ id: string; mid: string }> {
  const id = pluginSlug('tlog');
  const item = await m.publish(await pack(id));
  return { id, mid: item.marketplace_id };
}

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/emporium.mjs');
/** `npx emporium marketplace audit <url>` as a real process: its exit code and what it printed. */
async function auditCli(url: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'marketplace', 'audit', url], {
      encoding: 'utf8',
    });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code?: number; stdout?: string };
    return { code: e.code ?? -1, out: e.stdout ?? '' };
  }
}

const shopLog = async () => (await t.admin('GET', '/admin/marketplace/log')).json();

describe('transparency log on the shop', () => {
  it('installs an artifact the log proves, keeps the tree head, and the audit finds nothing wrong', async () => {
    const a = await publishNew();
    const plugin = await installAndWait(t, a.mid);
    expect(plugin.status, plugin.error).toBe('installed');
    const state = await shopLog();
    expect(state.tree_head.tree_size).toBeGreaterThanOrEqual(1);
    expect(state.served).toContainEqual(
      expect.objectContaining({ marketplace_id: a.mid, version: '1.0.0', refused_reason: null }),
    );
    await publishNew();
    expect(await pollLogHead(t.ctx, t.config)).toMatchObject({
      status: 'accepted',
      tree_size: state.tree_head.tree_size + 1,
    });
    const report = await audit();
    expect(report.problems).toEqual([]);
    expect(report.entries).toBe(state.tree_head.tree_size + 1);
    expect(report.proofs_checked).toBe(2 * report.entries - 1);
    const cli = await auditCli(m.url);
    expect(cli.out).toContain(`${report.entries} entries, root ${report.root_hash}`);
    expect(cli.out).toContain('ok: the log checks out');
    expect(cli.code).toBe(0);
  }, 120_000);

  it('refuses an artifact served to this shop that is not in the log (other bytes, validly signed), and the audit reports it', async () => {
    const a = await publishNew();
    // The marketplace turns bad: same id and version, other bytes, signed with its own key, not logged.
    const evil = await pack(a.id, 'evil');
    const { sha256, size } = await readPackage(evil);
    const mctx = { db: m.database.db, clock: m.clock, log: pino({ level: 'silent' }) };
    const key = await ensureSigningKey(mctx, 'marketplace-encryption-key-0123456789');
    const signature = signText(key, signedText(a.mid, '1.0.0', sha256));
    const [row] = (
      (await m.database.db.execute(sql`
        update marketplace_versions v set sha256 = ${sha256}, size = ${size}, signature = ${signature}
        from marketplace_items i where i.id = v.item_id and i.marketplace_id = ${a.mid} returning v.id`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows;
    await m.database.db.execute(sql`update marketplace_artifacts set bytes = ${evil} where version_id = ${row.id}`);

    const plugin = await installAndWait(t, a.mid);
    expect(plugin.status).toBe('failed');
    expect(plugin.error).toMatch(/not in the marketplace's transparency log/);
    const state = await shopLog();
    expect(state.served).toContainEqual(
      expect.objectContaining({ marketplace_id: a.mid, sha256, leaf_index: null, refused_reason: expect.any(String) }),
    );
    const notes = (await t.admin('GET', '/admin/notifications')).json().notifications;
    expect(notes.map((n: { type: string }) => n.type)).toContain('marketplace.log_refused');
    const report = await audit();
    expect(report.problems).toEqual([
      `served to the shop but not in the log: ${a.mid}@1.0.0 sha256 ${sha256} (the shop refused it)`,
    ]);
  });

  it('refuses bytes that differ from the logged ones even when the descriptor carries the honest proof', async () => {
    const a = await publishNew();
    const evil = await pack(a.id, 'evil-2');
    const { sha256, size } = await readPackage(evil);
    const mctx = { db: m.database.db, clock: m.clock, log: pino({ level: 'silent' }) };
    const key = await ensureSigningKey(mctx, 'marketplace-encryption-key-0123456789');
    const honest = (await m.app.inject({ method: 'GET', url: `/store/marketplace/download/${a.mid}/1.0.0` })).json();
    expect(honest.log.entry.sha256).not.toBe(sha256);
    // Other bytes and their signature in the database; the descriptor keeps the honest entry's proof.
    const [row] = (
      (await m.database.db.execute(sql`
        update marketplace_versions v set sha256 = ${sha256}, size = ${size},
          signature = ${signText(key, signedText(a.mid, '1.0.0', sha256))}
        from marketplace_items i where i.id = v.item_id and i.marketplace_id = ${a.mid} returning v.id`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows;
    await m.database.db.execute(sql`update marketplace_artifacts set bytes = ${evil} where version_id = ${row.id}`);
    m.rewriteDescriptor = (d) => ({ ...d, log: honest.log });
    try {
      const plugin = await installAndWait(t, a.mid);
      expect(plugin.status).toBe('failed');
      expect(plugin.error).toMatch(/the transparency log entry names .* not the [0-9a-f]{64} this shop received/);
    } finally {
      m.rewriteDescriptor = null;
    }
  });

  it('refuses a log that dropped an entry from its history, on the poll and on the next install', async () => {
    await publishNew();
    const monitor = await auditMarketplace({ marketplace: m.url });
    expect(await pollLogHead(t.ctx, t.config)).toMatchObject({ status: 'accepted' });
    const kept = (await shopLog()).tree_head.tree_size;
    // The marketplace rewrites history: entry 0 goes, the rest move up, and one more is appended so the size grows.
    await m.database.db.execute(
      sql`alter table marketplace_log_entries disable trigger marketplace_log_entries_append_only`,
    );
    await m.database.db.execute(sql`delete from marketplace_log_entries where leaf_index = 0`);
    await m.database.db.execute(sql`update marketplace_log_entries set leaf_index = leaf_index - 1`);
    await m.database.db.execute(
      sql`alter table marketplace_log_entries enable trigger marketplace_log_entries_append_only`,
    );
    await publishNew();
    const b = await publishNew();

    const polled = await pollLogHead(t.ctx, t.config);
    expect(polled).toMatchObject({ status: 'refused' });
    expect((polled as { reason: string }).reason).toMatch(/history was rewritten/);
    const state = await shopLog();
    expect(state.tree_head.tree_size).toBe(kept);
    expect(state.refused_reason).toMatch(/history was rewritten/);

    const plugin = await installAndWait(t, b.mid);
    expect(plugin.status).toBe('failed');
    expect(plugin.error).toMatch(/history was rewritten/);
    const report = await audit();
    expect(report.problems.join('\n')).toMatch(/differs from this log's: the marketplace showed the shop another log/);

    // An entry changed in place (the signed roots no longer match the entries served): the CLI exits 1.
    await m.database.db.execute(
      sql`alter table marketplace_log_entries disable trigger marketplace_log_entries_append_only`,
    );
    await m.database.db.execute(sql`update marketplace_log_entries set sha256 = repeat('0', 64) where leaf_index = 0`);
    await m.database.db.execute(
      sql`alter table marketplace_log_entries enable trigger marketplace_log_entries_append_only`,
    );
    const tampered = (await auditMarketplace({ marketplace: m.url })).problems;
    expect(tampered).toEqual([]); // the marketplace re-signs whatever it holds: alone, the log looks whole…
    const again = await audit(); // …but not against what the shop verified before,
    expect(again.problems.join('\n')).toMatch(/another log/);
    const known = { tree_size: monitor.tree_size, root_hash: monitor.root_hash }; // nor what a monitor kept.
    expect((await auditMarketplace({ marketplace: m.url, known })).problems.join('\n')).toMatch(
      /history was rewritten/,
    );
  }, 120_000);
});
