import { sql, type SQL } from 'drizzle-orm';
import { type Db, rows, type Executor } from '../../platform/db/database.ts';
import { preparedRows, textArray, transaction } from '../../platform/db/prepared.ts';

export interface AuditEntry {
  id: string;
  created_at: Date;
  actor_type: string;
  actor_id: string | null;
  actor_role: string | null;
  method: string;
  route: string;
  path: string;
  resource: string | null;
  action: string | null;
  resource_id: string | null;
  fields: string[];
  changes: Record<string, unknown>;
  in_transaction: boolean;
  ip: string | null;
  user_agent: string | null;
}

export async function insertAuditEntry(exec: Executor, e: AuditEntry): Promise<void> {
  await preparedRows(
    exec,
    sql`insert into audit_log (id, created_at, actor_type, actor_id, actor_role, method, route, path, resource,
          action, resource_id, fields, changes, in_transaction, ip, user_agent)
        values (${e.id}, ${e.created_at.toISOString()}::timestamptz, ${e.actor_type}, ${e.actor_id}, ${e.actor_role},
          ${e.method}, ${e.route}, ${e.path}, ${e.resource}, ${e.action}, ${e.resource_id},
          ${JSON.stringify(e.fields)}::jsonb, ${JSON.stringify(e.changes)}::jsonb, ${e.in_transaction},
          ${e.ip}, ${e.user_agent})`,
  );
}

/** Names the transaction's entry for the watched tables' triggers (migration audit_log_data). */
export async function setAuditId(exec: Executor, id: string): Promise<void> {
  await preparedRows(exec, sql`select set_config('emporium.audit_id', ${id}, true)`);
}

export interface AuditFilter {
  actor_id?: string;
  resource?: string;
  resource_id?: string;
  action?: string;
  method?: string;
  from?: Date;
  to?: Date;
}

export interface AuditChange {
  table: string;
  row_id: string | null;
  column: string;
  before: unknown;
  after: unknown;
}

/** A page of entries, newest first, each with its before/after values; the total only when asked. */
export async function listAuditEntries(
  exec: Executor,
  filter: AuditFilter,
  page: { limit: number; offset: number; count: boolean },
): Promise<{ entries: (AuditEntry & { before_after: AuditChange[] })[]; count: number | null }> {
  const where: SQL[] = [sql`true`];
  if (filter.actor_id) where.push(sql`a.actor_id = ${filter.actor_id}`);
  if (filter.resource) where.push(sql`a.resource = ${filter.resource}`);
  if (filter.resource_id) where.push(sql`a.resource_id = ${filter.resource_id}`);
  if (filter.action) where.push(sql`a.action = ${filter.action}`);
  if (filter.method) where.push(sql`a.method = ${filter.method}`);
  if (filter.from) where.push(sql`a.created_at >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) where.push(sql`a.created_at < ${filter.to.toISOString()}::timestamptz`);
  const cond = sql.join(where, sql` and `);
  const entries = await rows<AuditEntry & { before_after: AuditChange[] }>(
    exec,
    sql`select a.*, coalesce((
          select jsonb_agg(jsonb_build_object('table', c.table_name, 'row_id', c.row_id, 'column', c.column_name,
                   'before', c.before, 'after', c.after) order by c.seq)
          from audit_changes c where c.audit_id = a.id), '[]'::jsonb) as before_after
        from audit_log a where ${cond}
        order by a.created_at desc, a.id desc limit ${page.limit} offset ${page.offset}`,
  );
  if (!page.count) return { entries, count: null };
  const [{ n }] = await rows<{ n: number }>(exec, sql`select count(*)::int as n from audit_log a where ${cond}`);
  return { entries, count: n };
}

/**
 * Deletes up to `limit` entries older than `before`, with their before/after values, in one
 * transaction that tells the append-only trigger it is the retention job. Answers how many.
 */
export function pruneAuditEntries(db: Db, before: Date, limit: number): Promise<number> {
  return transaction(db, async (tx) => {
    await rows(tx, sql`select set_config('emporium.audit_retention', 'on', true)`);
    const deleted = await rows<{ id: string }>(
      tx,
      sql`delete from audit_log where id = any(array(
            select id from audit_log where created_at < ${before.toISOString()}::timestamptz
            order by created_at limit ${limit} for update skip locked))
          returning id`,
    );
    if (deleted.length)
      await rows(tx, sql`delete from audit_changes where audit_id = any(${textArray(deleted.map((d) => d.id))})`);
    return deleted.length;
  });
}
