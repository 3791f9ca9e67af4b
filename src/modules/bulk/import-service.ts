import { eq, sql } from 'drizzle-orm';
import { stringify } from 'csv-stringify/sync';
import { inTx, type Ctx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { JobActor } from '../audit/job-entry.ts';
import { enqueueJob, notifyJobs, saveJobFile } from '../../platform/jobs/queue.ts';
import { jobs } from '../../platform/jobs/tables.ts';
import { planImport } from './import-plan.ts';
import { parseProductCsv, type RowIssue } from './product-csv.ts';

export const PRODUCT_IMPORT = 'product_import';
/** Issues listed in the preview's answer; the error report file has them all. */
const ANSWERED_ISSUES = 1000;

/** The per-row report: row, column, reason (a spreadsheet opens it beside the file it describes). */
export function issuesCsv(issues: RowIssue[]): string {
  return stringify(
    issues.map((i) => [i.row, i.column, i.reason]),
    { header: true, columns: ['Row', 'Column', 'Reason'] },
  );
}

/**
 * `POST /admin/products/import`: reads and checks the file, plans it against the catalog and keeps
 * it as a job awaiting confirmation. Nothing of the catalog is written here. Medusa answers
 * `{ transaction_id, summary: { toCreate, toUpdate } }`; ours adds the row report.
 */
export async function previewProductImport(ctx: Ctx, file: { filename: string; text: string }) {
  const parsed = parseProductCsv(file.text);
  const plan = await planImport(ctx.db, parsed);
  const summary = {
    toCreate: plan.toCreate,
    toUpdate: plan.toUpdate,
    rows: parsed.total,
    rows_with_errors: new Set(plan.issues.map((i) => i.row)).size,
    errors: plan.issues.slice(0, ANSWERED_ISSUES),
    warnings: plan.warnings.slice(0, ANSWERED_ISSUES),
    ignored_columns: parsed.ignoredColumns,
    to_make: {
      tags: plan.missing.tags.length,
      types: plan.missing.types.length,
      collections: plan.missing.collections.length,
    },
  };
  const job = await inTx(ctx, async ({ tx, clock }) => {
    const now = clock.now();
    const row = await enqueueJob(tx, {
      type: PRODUCT_IMPORT,
      status: 'awaiting_confirmation',
      input: { filename: file.filename },
      result: { summary: { ...summary, errors: plan.issues.length, warnings: plan.warnings.length } },
      progressTotal: parsed.total,
      createdBy: ctx.actor?.id ?? null,
      now,
    });
    await saveJobFile(tx, {
      jobId: row.id,
      kind: 'input',
      filename: file.filename,
      contentType: 'text/csv',
      content: file.text,
      now,
    });
    if (plan.issues.length)
      await saveJobFile(tx, {
        jobId: row.id,
        kind: 'errors',
        filename: `${file.filename.replace(/\.csv$/i, '')}-errors.csv`,
        contentType: 'text/csv',
        content: issuesCsv(plan.issues),
        now,
      });
    return row;
  });
  return { transaction_id: job.id, summary };
}

/**
 * `POST /admin/products/import/{transaction_id}/confirm`: the job becomes due on every instance.
 * Who confirmed is kept on the job: its outcome's audit entry is filed under them.
 */
export async function confirmProductImport(ctx: Ctx, id: string, by: JobActor | null = null): Promise<void> {
  await inTx(ctx, async ({ tx, clock }) => {
    const [job] = await rows<{ status: string; type: string }>(
      tx,
      sql`select status, type from jobs where id = ${id} for update`,
    );
    if (!job || job.type !== PRODUCT_IMPORT) throw errors.notFound('import_not_found', { id });
    if (job.status !== 'awaiting_confirmation')
      throw errors.notAllowed('import_not_awaiting', { id, status: job.status });
    await tx
      .update(jobs)
      .set({
        status: 'pending',
        input: sql`${jobs.input} || ${JSON.stringify({ confirmed_by: by })}::jsonb`,
        updated_at: clock.now(),
      })
      .where(eq(jobs.id, id));
    await notifyJobs(tx);
  });
}
