import { sql } from 'drizzle-orm';
import type { Actor } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';

/** Who confirmed a background job: kept on the job so that its outcome is filed under them. */
export interface JobActor {
  type: string;
  id: string;
  role: string | null;
  ip: string | null;
  user_agent: string | null;
}

export function jobActorOf(actor: Actor | undefined, from: { ip?: string; userAgent?: string }): JobActor | null {
  if (!actor) return null;
  return {
    type: actor.type,
    id: actor.id,
    role: actor.role,
    ip: from.ip ?? null,
    user_agent: from.userAgent?.slice(0, 500) ?? null,
  };
}

/**
 * The outcome of a confirmed background job (an import's created, updated and failed counts), as
 * one audit entry under the job's id and the actor who confirmed it: the rows the job writes are
 * not audited one by one (it runs without a request). `method` is JOB, `route` the job's type.
 * The entry's id follows from the job's, so a job resumed after its last batch (its instance died
 * before it was marked done) does not file it twice.
 */
export async function recordJobOutcome(
  exec: Executor,
  e: {
    jobId: string;
    jobType: string;
    resource: string;
    action: string;
    actor: JobActor | null;
    at: Date;
    counts: Record<string, number | string>;
  },
): Promise<void> {
  const id = `audit_${e.jobId.replace(/^job_/, '')}`;
  await exec.execute(sql`insert into audit_log (id, created_at, actor_type, actor_id, actor_role, method, route, path,
      resource, action, resource_id, fields, changes, in_transaction, ip, user_agent)
    values (${id}, ${e.at.toISOString()}::timestamptz, ${e.actor?.type ?? 'system'}, ${e.actor?.id ?? null},
      ${e.actor?.role ?? null}, 'JOB', ${e.jobType}, ${`/admin/jobs/${e.jobId}`}, ${e.resource}, ${e.action}, ${e.jobId},
      ${JSON.stringify(Object.keys(e.counts))}::jsonb, ${JSON.stringify(e.counts)}::jsonb, true,
      ${e.actor?.ip ?? null}, ${e.actor?.user_agent ?? null})
    on conflict (id) do nothing`);
}
