import { bigserial, boolean, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../platform/db/columns.ts';

/**
 * One row per admin write: who (actor and role), what (method, route pattern, resource and id,
 * the fields sent and the values of the watched ones, secrets redacted), when, from where.
 * Append-only: a trigger refuses UPDATE and DELETE except the retention job's delete (see the
 * `audit_log_data` migration), and no plugin role is granted anything on it.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: idColumn(),
    created_at: ts('created_at').notNull(),
    actor_type: text('actor_type').notNull(),
    actor_id: text('actor_id'),
    actor_role: text('actor_role'),
    method: text('method').notNull(),
    route: text('route').notNull(),
    path: text('path').notNull(),
    resource: text('resource'),
    action: text('action'),
    resource_id: text('resource_id'),
    fields: jsonb('fields').$type<string[]>().notNull(),
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull(),
    /** Written in the write's own transaction (true), or just after a write made outside one (false). */
    in_transaction: boolean('in_transaction').notNull(),
    ip: text('ip'),
    user_agent: text('user_agent'),
  },
  (t) => [
    index('audit_log_created_idx').on(t.created_at.desc(), t.id.desc()),
    index('audit_log_actor_idx').on(t.actor_id, t.created_at.desc()),
    index('audit_log_resource_idx').on(t.resource, t.resource_id, t.created_at.desc()),
  ],
);

/**
 * Before and after values of the watched columns (prices, stock, statuses, roles and permissions),
 * written by triggers on those tables during an audited transaction: the transaction names its
 * entry (`emporium.audit_id`), so a trigger outside an admin write does nothing but read a setting.
 */
export const auditChanges = pgTable(
  'audit_changes',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    audit_id: text('audit_id').notNull(),
    table_name: text('table_name').notNull(),
    row_id: text('row_id'),
    column_name: text('column_name').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('audit_changes_audit_idx').on(t.audit_id)],
);
