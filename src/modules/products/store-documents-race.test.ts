import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { deferred, eventually } from '../../../test/processes.ts';
import { inTx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import { updateProductIn } from './service.ts';
import { refreshStoreDocuments } from './store-documents.ts';
import { defaultChannelId, makeCollection, makeProduct } from './products.testing.ts';

/**
 * Two transactions that both rebuild one product's store document: a product write, and a
 * collection rename that only refreshes the documents of the collection's products. Whichever
 * commits last must not leave a document built before the other committed. PostgreSQL only: on
 * PGlite one connection runs one transaction at a time, so the two cannot overlap.
 */
describe.skipIf(!process.env.DATABASE_URL)('store documents under concurrent writes (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Backends of this database waiting for a lock another transaction holds. */
  const lockWaiters = async () =>
    Number(
      (
        await rows<{ n: string }>(
          t.database.db,
          sql`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )
      )[0].n,
    );

  it('a refresh that waits on an uncommitted product write keeps that write in the document', async () => {
    const collection = await makeCollection(t, { title: 'Summer' });
    const product = await makeProduct(t, {
      title: 'Old title',
      status: 'published',
      collection_id: collection.id,
      sales_channels: [{ id: await defaultChannelId(t) }],
    });

    // The product write, held open after it rebuilt its document, as a slow admin request would be.
    const commit = deferred();
    const wrote = deferred();
    const write = inTx(t.ctx, async (tctx) => {
      await updateProductIn(tctx, product.id, { title: 'New title' });
      await refreshStoreDocuments(tctx.tx, [product.id]);
      wrote.resolve();
      await commit.promise;
    });
    await wrote.promise;

    // The rename rebuilds the same document: it must wait for the write, not overwrite it later.
    const rename = t.admin('POST', `/admin/collections/${collection.id}`, { title: 'Winter' });
    await eventually(async () => (await lockWaiters()) > 0, 10_000, 'the rename to wait for the product write');
    commit.resolve();
    await write;
    const renamed = await rename;
    expect(renamed.statusCode, renamed.body).toBe(200);

    const res = await t.store('GET', `/store/products/${product.id}?fields=title,*collection`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().product.title).toBe('New title');
    expect(res.json().product.collection.title).toBe('Winter');
  });
});
