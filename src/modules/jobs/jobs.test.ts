import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { JobRunner } from '../../platform/jobs/runner.ts';
import { productImportJob } from '../bulk/import-job.ts';
import { cancelJob } from './service.ts';

/** The admin's view of background jobs: canceling one that waits, is due, or runs. */
let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  ({ dashboard: sdk } = await medusaSdks(t));
}, 300_000);
afterAll(() => t.close());

const csvFile = (text: string) => new File([text], 'products.csv', { type: 'text/csv' });
const HEADER =
  'Product Handle,Product Title,Variant Sku,Variant Price EUR,Variant Option 1 Name,Variant Option 1 Value';

async function job(id: string) {
  const res = await t.admin('GET', `/admin/jobs/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().job;
}

describe('canceling a job', () => {
  it('an import awaiting its confirmation and a due export end canceled and never run', async () => {
    const preview = await sdk.admin.product.import({ file: csvFile(`${HEADER}\nnever-run,Never,NR-1,5,Size,S`) });
    const canceled = await t.admin('POST', `/admin/jobs/${preview.transaction_id}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().job).toMatchObject({ id: preview.transaction_id, status: 'canceled' });
    const confirm = await t.admin('POST', `/admin/products/import/${preview.transaction_id}/confirm`);
    expect(confirm.statusCode).toBe(400);
    expect(confirm.json().code).toBe('import_not_awaiting');

    const exported = await t.admin('POST', '/admin/products/export', {});
    expect(exported.statusCode, exported.body).toBe(202);
    const { transaction_id } = exported.json();
    expect((await t.admin('POST', `/admin/jobs/${transaction_id}/cancel`)).statusCode).toBe(200);
    await t.workers.jobs.drain();
    expect(await job(transaction_id)).toMatchObject({ status: 'canceled', files: [], result: null });
    expect((await t.admin('GET', '/admin/products?handle=never-run')).json().products).toEqual([]);

    // Ended jobs stay as they ended; an unknown id is 404.
    const again = await t.admin('POST', `/admin/jobs/${transaction_id}/cancel`);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      type: 'not_allowed',
      code: 'job_not_cancelable',
      message: `Job ${transaction_id} is canceled; only a job that has not ended can be canceled`,
    });
    const missing = await t.admin('POST', '/admin/jobs/job_nope/cancel');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('job_not_found');
    // Reading jobs is not canceling them.
    expect(
      (await t.admin('POST', `/admin/jobs/${transaction_id}/cancel`, undefined, { token: t.viewerToken })).statusCode,
    ).toBe(403);
  });

  it('a running import stops at its next batch: the batches that committed stay whole, the rest is not written', async () => {
    const lines = [HEADER];
    for (let i = 0; i < 800; i++)
      for (const size of ['S', 'M']) lines.push(`cancel-${i},Cancel ${i},CX-${i}-${size},5,Size,${size}`);
    const preview = await sdk.admin.product.import({ file: csvFile(lines.join('\n')) });
    await sdk.admin.product.confirmImport(preview.transaction_id);
    // The admin's cancel commits with the first batch (the service run in that batch's transaction:
    // PGlite runs one transaction at a time, so a request could only land after the whole job);
    // the next batch then finds the job no longer its runner's.
    let canceled: Awaited<ReturnType<typeof cancelJob>> | undefined;
    const runner = new JobRunner({ database: t.database, clock: t.clock, log: t.app.log, owner: 'canceled' });
    runner.register({
      type: productImportJob.type,
      run: (ctx) =>
        productImportJob.run({
          ...ctx,
          progress: async (tx, done, total) => {
            await ctx.progress(tx, done, total);
            if (!canceled) canceled = await cancelJob({ ...t.ctx, db: tx as never }, preview.transaction_id);
          },
        }),
    });
    await runner.drain();
    expect(canceled?.status).toBe('canceled');
    const ended = await job(preview.transaction_id);
    expect(ended).toMatchObject({ status: 'canceled', files: [] });
    // The preview's summary only: the run wrote no outcome.
    expect(Object.keys(ended.result)).toEqual(['summary']);
    expect(ended.progress.done).toBeGreaterThan(0);
    expect(ended.progress.done).toBeLessThan(1600);
    // Whole products only: every product written has both its variants, as many as the progress counts.
    const [n] = await rows<{ products: number; variants: number }>(
      t.database.db,
      sql`select (select count(*)::int from products where handle like 'cancel-%' and deleted_at is null) as products,
                 (select count(*)::int from product_variants where sku like 'CX-%' and deleted_at is null) as variants`,
    );
    expect(n.variants).toBe(2 * n.products);
    expect(n.variants).toBe(ended.progress.done);
    // No runner takes it up again.
    await t.workers.jobs.drain();
    expect((await job(preview.transaction_id)).status).toBe('canceled');
  }, 180_000);
});
