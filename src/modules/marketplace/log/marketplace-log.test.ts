import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import type { JsonObject } from '../../../platform/providers.ts';
import { entryLeafHash, treeHeadSigned } from '../../../transparency-log/format.ts';
import { rootHash, verifyConsistency, verifyInclusion } from '../../../transparency-log/merkle.ts';
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

const get = async (url: string) => {
  const res = await t.inject({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() };
};
const hex = (s: string) => Buffer.from(s, 'hex');

async function keys(): Promise<Record<string, string>> {
  const { body } = await get('/store/marketplace/keys');
  return Object.fromEntries(body.keys.map((k: { key_id: string; public_key: string }) => [k.key_id, k.public_key]));
}

async function publishOne(): Promise<{
  mid: string;
  item: { id: string; versions: { id: string; sha256: string }[] };
}> {
  const id = uniqueSlug('logged');
  const res = await publish(t, await packExample('order-notes', { id }));
  expect(res.statusCode, res.body).toBe(200);
  return { mid: res.json().item.marketplace_id, item: res.json().item };
}

describe('transparency log endpoints', () => {
  it('logs every approved version once; heads are signed, proofs verify, the entries hash to the root', async () => {
    const before = (await get('/store/marketplace/log/sth')).body.tree_size as number;
    const published = [await publishOne(), await publishOne(), await publishOne()];
    const { status, body: sth } = await get('/store/marketplace/log/sth');
    expect(status).toBe(200);
    expect(sth.tree_size).toBe(before + 3);
    expect(treeHeadSigned(sth, await keys())).toBe(true);
    expect(treeHeadSigned({ ...sth, tree_size: sth.tree_size + 1 }, await keys())).toBe(false);

    const { body: page } = await get(`/store/marketplace/log/entries?start=0&end=${sth.tree_size}`);
    expect(page.entries).toHaveLength(sth.tree_size);
    const hashes = page.entries.map(entryLeafHash);
    expect(rootHash(hashes).toString('hex')).toBe(sth.root_hash);

    for (const p of published) {
      const { status: s, body: proof } = await get(
        `/store/marketplace/log/proof?marketplace_id=${encodeURIComponent(p.mid)}&version=1.0.0`,
      );
      expect(s).toBe(200);
      expect(proof.entry).toMatchObject({ marketplace_id: p.mid, version: '1.0.0', sha256: p.item.versions[0].sha256 });
      expect(
        verifyInclusion(
          proof.leaf_index,
          proof.tree_size,
          entryLeafHash(proof.entry),
          proof.audit_path.map(hex),
          hex(sth.root_hash),
        ),
      ).toBe(true);
    }

    // The head of an earlier size is the same signed text every time, and consistent with the current one.
    const { body: old } = await get(`/store/marketplace/log/sth?tree_size=${before + 1}`);
    expect((await get(`/store/marketplace/log/sth?tree_size=${before + 1}`)).body).toEqual(old);
    expect(old.root_hash).toBe(rootHash(hashes.slice(0, before + 1)).toString('hex'));
    const { body: c } = await get(`/store/marketplace/log/consistency?first=${before + 1}&second=${sth.tree_size}`);
    expect(verifyConsistency(before + 1, sth.tree_size, hex(old.root_hash), hex(sth.root_hash), c.proof.map(hex))).toBe(
      true,
    );

    // The descriptor carries the proof under a signed head.
    const { body: d } = await get(`/store/marketplace/download/${published[0].mid}/1.0.0`);
    expect(d.log.sth).toEqual(sth);
    expect(d.log.entry.sha256).toBe(d.sha256);
  });

  it('a version in review is not logged; approval appends it', async () => {
    const v = await signUpVendor(t, sent, uniqueNamespace('logrev'));
    const id = uniqueSlug('reviewed');
    const res = await publish(t, await packExample('order-notes', { id, vendor: v.namespace }), {}, { token: v.token });
    expect(res.json().item.versions[0].status).toBe('in_review');
    const mid = `@${v.namespace}/${id}`;
    const proofUrl = `/store/marketplace/log/proof?marketplace_id=${encodeURIComponent(mid)}&version=1.0.0`;
    expect((await get(proofUrl)).status).toBe(404);
    const size = (await get('/store/marketplace/log/sth')).body.tree_size;
    const item = res.json().item;
    const ok = await t.admin('POST', `/admin/marketplace/items/${item.id}/versions/${item.versions[0].id}/approve`, {});
    expect(ok.statusCode, ok.body).toBe(200);
    const proof = await get(proofUrl);
    expect(proof.status).toBe(200);
    expect(proof.body.leaf_index).toBe(size);
  });

  it('refuses sizes beyond the log and malformed queries with a 400; the table refuses rewrites', async () => {
    await publishOne();
    const size = (await get('/store/marketplace/log/sth')).body.tree_size;
    expect((await get(`/store/marketplace/log/sth?tree_size=${size + 1}`)).status).toBe(400);
    expect((await get(`/store/marketplace/log/consistency?first=2&second=${size + 5}`)).status).toBe(400);
    expect((await get('/store/marketplace/log/consistency?first=3&second=2')).status).toBe(400);
    expect((await get('/store/marketplace/log/consistency?first=x&second=2')).status).toBe(400);
    expect((await get('/store/marketplace/log/proof')).status).toBe(400);
    expect((await get(`/store/marketplace/log/proof?leaf_index=${size + 3}`)).status).toBe(404);
    await expect(t.database.db.execute(sql`update marketplace_log_entries set sha256 = 'x'`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from marketplace_log_entries`)).rejects.toThrow();
  });
});
