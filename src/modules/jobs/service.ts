import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import type { JobFileKind, JobRow } from '../../platform/jobs/queue.ts';
import { jobFiles, jobs } from '../../platform/jobs/tables.ts';

export interface JobFileRef {
  kind: JobFileKind;
  filename: string;
  url: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A job as the admin API shows it; `files` lists what can be downloaded (never the upload itself). */
export function jobView(job: JobRow, files: { kind: string; filename: string }[]) {
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    progress: { done: job.progress_done, total: job.progress_total },
    result: job.result ?? null,
    error: job.error,
    attempts: job.attempts,
    created_by: job.created_by,
    files: files
      .filter((f) => f.kind !== 'input')
      .map((f) => ({
        kind: f.kind as JobFileKind,
        filename: f.filename,
        url: `/admin/jobs/${job.id}/files/${f.kind}`,
      })),
    created_at: job.created_at.toISOString(),
    updated_at: job.updated_at.toISOString(),
    started_at: iso(job.started_at),
    finished_at: iso(job.finished_at),
  };
}

async function filesOf(ctx: Ctx, ids: string[]) {
  if (!ids.length) return new Map<string, { kind: string; filename: string }[]>();
  const rows = await ctx.db
    .select({ job_id: jobFiles.job_id, kind: jobFiles.kind, filename: jobFiles.filename })
    .from(jobFiles)
    .where(inArray(jobFiles.job_id, ids));
  const byJob = new Map<string, { kind: string; filename: string }[]>();
  for (const r of rows) byJob.set(r.job_id, [...(byJob.get(r.job_id) ?? []), r]);
  return byJob;
}

export async function listJobs(ctx: Ctx, filters: { type?: string; status?: string }, page: Page) {
  const conds: SQL[] = [];
  if (filters.type) conds.push(eq(jobs.type, filters.type));
  if (filters.status) conds.push(eq(jobs.status, filters.status));
  const where = conds.length ? and(...conds) : undefined;
  const [rows, [{ n }]] = await Promise.all([
    ctx.db.select().from(jobs).where(where).orderBy(desc(jobs.created_at)).limit(page.limit).offset(page.offset),
    ctx.db.select({ n: count() }).from(jobs).where(where),
  ]);
  const files = await filesOf(
    ctx,
    rows.map((r) => r.id),
  );
  return { jobs: rows.map((r) => jobView(r, files.get(r.id) ?? [])), count: Number(n) };
}

export async function findJob(ctx: Ctx, id: string): Promise<JobRow | undefined> {
  const [row] = await ctx.db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

export async function getJob(ctx: Ctx, id: string) {
  const job = await findJob(ctx, id);
  if (!job) throw errors.notFound('job_not_found', { id });
  return jobView(job, (await filesOf(ctx, [id])).get(id) ?? []);
}

export async function getJobFile(ctx: Ctx, id: string, kind: JobFileKind) {
  const [file] = await ctx.db
    .select()
    .from(jobFiles)
    .where(and(eq(jobFiles.job_id, id), eq(jobFiles.kind, kind)));
  if (!file) throw errors.notFound('job_file_not_found', { id, kind });
  return file;
}

/** A job that has not ended yet: waiting for its confirmation, due, or running. */
const CANCELABLE = ['awaiting_confirmation', 'pending', 'running'];

/**
 * `POST /admin/jobs/{id}/cancel`: the job ends as `canceled` and no runner claims it again. A
 * running one stops at its next batch: its runner no longer holds it (the lease is cleared), so
 * the batch in flight rolls back on its progress write (batches that committed stay, each whole,
 * as an import's always are) and the run writes no result or file.
 */
export async function cancelJob(ctx: Ctx, id: string) {
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .update(jobs)
    .set({ status: 'canceled', lease_owner: null, lease_until: null, finished_at: now, updated_at: now })
    .where(and(eq(jobs.id, id), inArray(jobs.status, CANCELABLE)))
    .returning();
  if (!row) {
    const job = await findJob(ctx, id);
    if (!job) throw errors.notFound('job_not_found', { id });
    throw errors.notAllowed('job_not_cancelable', { id, status: job.status });
  }
  return jobView(row, (await filesOf(ctx, [id])).get(id) ?? []);
}
