import { sql } from 'drizzle-orm';
import type { Executor } from '../db/database.ts';
import { newId } from '../ids.ts';
import { jobFiles, jobs } from './tables.ts';

/** NOTIFY channel that wakes the runners of every instance when a job becomes due. */
export const JOBS_CHANNEL = 'emporium_jobs';

export type JobStatus = 'awaiting_confirmation' | 'pending' | 'running' | 'succeeded' | 'failed' | 'canceled';
export type JobFileKind = 'input' | 'result' | 'errors';

export type JobRow = typeof jobs.$inferSelect;

export interface NewJob {
  type: string;
  input: Record<string, unknown>;
  /** `awaiting_confirmation` waits for confirmJob (an import's preview); default pending. */
  status?: 'awaiting_confirmation' | 'pending';
  result?: Record<string, unknown> | null;
  progressTotal?: number;
  createdBy?: string | null;
  now: Date;
}

/** Inserts a job in the caller's transaction; a pending one wakes the runners at commit. */
export async function enqueueJob(db: Executor, job: NewJob): Promise<JobRow> {
  const [row] = await db
    .insert(jobs)
    .values({
      id: newId('job'),
      type: job.type,
      status: job.status ?? 'pending',
      input: job.input,
      result: job.result ?? null,
      progress_total: job.progressTotal ?? 0,
      created_by: job.createdBy ?? null,
      created_at: job.now,
      updated_at: job.now,
    })
    .returning();
  if (row.status === 'pending') await notifyJobs(db);
  return row;
}

export async function notifyJobs(db: Executor): Promise<void> {
  await db.execute(sql`select pg_notify(${JOBS_CHANNEL}, '')`);
}

/** Stores a file of a job (one per kind; a second replaces the first, so a rerun overwrites). */
export async function saveJobFile(
  db: Executor,
  file: { jobId: string; kind: JobFileKind; filename: string; contentType: string; content: string; now: Date },
): Promise<void> {
  await db
    .insert(jobFiles)
    .values({
      id: newId('jobfile'),
      job_id: file.jobId,
      kind: file.kind,
      filename: file.filename,
      content_type: file.contentType,
      content: file.content,
      created_at: file.now,
    })
    .onConflictDoUpdate({
      target: [jobFiles.job_id, jobFiles.kind],
      set: { filename: file.filename, content_type: file.contentType, content: file.content, created_at: file.now },
    });
}
