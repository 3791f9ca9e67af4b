import { and, eq } from 'drizzle-orm';
import { inTx, type Ctx } from '../../platform/context.ts';
import { withTxRetry } from '../../platform/db/pg-errors.ts';
import { JobFailure, type JobContext, type JobHandler, LeaseLost } from '../../platform/jobs/runner.ts';
import { jobFiles } from '../../platform/jobs/tables.ts';
import { type JobActor, recordJobOutcome } from '../audit/job-entry.ts';
import { createCollection } from '../collections/service.ts';
import { createLabel, TAG, TYPE } from '../product-labels/service.ts';
import { createProductsIn } from '../products/bulk-create.ts';
import { updateProductsIn } from '../products/bulk-update.ts';
import { refreshStoreDocuments } from '../products/store-documents.ts';
import { type PlannedProduct, planImport } from './import-plan.ts';
import { issuesCsv, PRODUCT_IMPORT } from './import-service.ts';
import { parseProductCsv, type RowIssue } from './product-csv.ts';

/**
 * Rows written per transaction: all of a batch commits with its progress, or none of it. New
 * products and updates go in a fixed number of statements per batch, so a larger batch costs
 * fewer round trips; 500 rows keep a batch's transaction to a second or two on a busy machine.
 */
export const IMPORT_BATCH_ROWS = 500;

/** Makes the tags, types and collections the file names and the shop lacks (each once, by value or handle). */
async function makeMissing(ctx: Ctx, missing: Awaited<ReturnType<typeof planImport>>['missing']): Promise<void> {
  const tolerant = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      // Another run made it meanwhile (a retried job): the next plan finds it.
      if ((err as { type?: string }).type !== 'invalid_data') throw err;
    }
  };
  for (const value of missing.tags) await tolerant(() => createLabel(ctx, TAG, { value }));
  for (const value of missing.types) await tolerant(() => createLabel(ctx, TYPE, { value }));
  for (const c of missing.collections)
    await tolerant(() => createCollection(ctx, { title: c.title, handle: c.handle }));
}

/**
 * A batch in one transaction: its new products (createProductsIn) and its updates
 * (updateProductsIn), each in a fixed number of statements whatever the batch's size, the store
 * documents once for all, and the job's progress.
 */
async function writeProducts(ctx: Ctx, job: JobContext, batch: PlannedProduct[], doneAfter: number): Promise<void> {
  await withTxRetry(() =>
    inTx(ctx, async (tctx) => {
      const created = await createProductsIn(
        tctx,
        batch.flatMap((p) => (p.create ? [p.create] : [])),
      );
      const updated = await updateProductsIn(
        tctx,
        batch.flatMap((p) => (p.update ? [p.update] : [])),
      );
      await refreshStoreDocuments(tctx.tx, [...created, ...updated]);
      await job.progress(tctx.tx, doneAfter);
    }),
  );
}

/**
 * Runs a confirmed import: plans the stored file again against the catalog as it is now, then
 * writes its products in batches of about IMPORT_BATCH_ROWS rows, each batch in one transaction
 * with the job's progress. A batch that fails is written again one product per transaction, so
 * one bad product costs only its own rows (reported), never a half-made product. Resumed by
 * another instance, it skips the rows whose progress committed.
 */
export const productImportJob: JobHandler = {
  type: PRODUCT_IMPORT,
  async run(job) {
    const ctx: Ctx = { db: job.db, clock: job.clock, log: job.log };
    const [file] = await job.db
      .select({ content: jobFiles.content, filename: jobFiles.filename })
      .from(jobFiles)
      .where(and(eq(jobFiles.job_id, job.job.id), eq(jobFiles.kind, 'input')));
    if (!file) throw new JobFailure('the uploaded file is gone');
    const parsed = parseProductCsv(file.content);
    let plan = await planImport(job.db, parsed);
    if (plan.missing.tags.length || plan.missing.types.length || plan.missing.collections.length) {
      await makeMissing(ctx, plan.missing);
      plan = await planImport(job.db, parsed);
    }
    const skippedRows = new Set(plan.issues.map((i) => i.row)).size;
    const failures: RowIssue[] = [];
    let done = skippedRows;
    // Rows whose batches committed in an earlier run (the progress counts them after the skipped rows).
    let resumeRows = Math.max(0, job.job.progress_done - skippedRows);
    let created = 0;
    let updated = 0;
    let batch: PlannedProduct[] = [];
    let batchRows = 0;
    const flush = async () => {
      if (!batch.length) return;
      if (job.signal.aborted) throw job.signal.reason;
      const count = (ps: PlannedProduct[]) => {
        for (const p of ps) p.create ? created++ : updated++;
      };
      try {
        await writeProducts(ctx, job, batch, done + batchRows);
        count(batch);
      } catch (err) {
        if (job.signal.aborted) throw err;
        // One product per transaction: the good ones go in, each bad one is reported with its rows.
        let d = done;
        for (const p of batch) {
          d += p.rows.length;
          try {
            await writeProducts(ctx, job, [p], d);
            count([p]);
          } catch (e) {
            if (e instanceof LeaseLost || job.signal.aborted) throw e;
            for (const row of p.rows)
              failures.push({ row, column: 'Product Handle', reason: `${p.handle}: ${(e as Error).message}` });
            await inTx(ctx, (t) => job.progress(t.tx, d));
          }
        }
      }
      done += batchRows;
      batch = [];
      batchRows = 0;
    };
    for (const p of plan.products) {
      if (resumeRows >= p.rows.length) {
        resumeRows -= p.rows.length;
        done += p.rows.length;
        continue;
      }
      batch.push(p);
      batchRows += p.rows.length;
      if (batchRows >= IMPORT_BATCH_ROWS) await flush();
    }
    await flush();
    const issues = [...plan.issues, ...failures].sort((a, b) => a.row - b.row);
    const rowsWithErrors = new Set(issues.map((i) => i.row)).size;
    await inTx(ctx, async ({ tx }) => {
      await recordJobOutcome(tx, {
        jobId: job.job.id,
        jobType: PRODUCT_IMPORT,
        resource: 'products',
        action: 'import',
        actor: (job.job.input.confirmed_by as JobActor | undefined) ?? null,
        at: job.clock.now(),
        counts: { file: file.filename, rows: parsed.total, created, updated, failed: rowsWithErrors },
      });
      if (issues.length)
        await job.saveFile(
          tx,
          'errors',
          `${file.filename.replace(/\.csv$/i, '')}-errors.csv`,
          'text/csv',
          issuesCsv(issues),
        );
      await job.progress(tx, parsed.total, parsed.total);
    });
    return {
      summary: {
        ...((job.job.result?.summary as object) ?? {}),
        toCreate: plan.toCreate,
        toUpdate: plan.toUpdate,
        errors: issues.length,
      },
      created,
      updated,
      rows: parsed.total,
      rows_with_errors: rowsWithErrors,
    };
  },
};
