import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../db/columns.ts';

/**
 * Background jobs (imports, exports): a row per job, claimed by one instance's runner with
 * `FOR UPDATE SKIP LOCKED` under a lease the runner renews while it works (runner.ts). A lease
 * that ran out (the instance died) makes the job claimable again; its handler resumes from
 * `progress_done`, which commits with each batch of work.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: idColumn(),
    type: text('type').notNull(),
    /** awaiting_confirmation → pending → running → succeeded | failed (or canceled before running). */
    status: text('status').notNull(),
    /** What the handler needs (filters, the import's plan); never the file itself (job_files). */
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    /** What the job found or did (the import's summary, rows exported). */
    result: jsonb('result').$type<Record<string, unknown> | null>(),
    progress_done: integer('progress_done').notNull().default(0),
    progress_total: integer('progress_total').notNull().default(0),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    lease_owner: text('lease_owner'),
    lease_until: ts('lease_until'),
    run_after: ts('run_after'),
    created_by: text('created_by'),
    created_at: ts('created_at').notNull(),
    updated_at: ts('updated_at').notNull(),
    started_at: ts('started_at'),
    finished_at: ts('finished_at'),
  },
  (t) => [
    index('jobs_due_idx').on(t.created_at).where(sql`status in ('pending', 'running')`),
    index('jobs_created_idx').on(t.created_at),
  ],
);

/** A job's files: the uploaded input, the result (CSV) and the per-row error report, as text. */
export const jobFiles = pgTable(
  'job_files',
  {
    id: idColumn(),
    job_id: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    /** input | result | errors */
    kind: text('kind').notNull(),
    filename: text('filename').notNull(),
    content_type: text('content_type').notNull(),
    content: text('content').notNull(),
    created_at: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('job_files_job_kind_idx').on(t.job_id, t.kind)],
);
