import { Type } from 'typebox';
import { filterDate } from '../../platform/http/filter-date.ts';
import { pageOf, pageQuery } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { Nullable, Timestamp } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { listAuditEntries } from './queries.ts';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Change = Type.Object({
  table: Type.String(),
  row_id: Nullable(Type.String()),
  column: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
});
const AuditEntry = Type.Object({
  id: Type.String(),
  created_at: Timestamp,
  actor_type: Type.String(),
  actor_id: Nullable(Type.String()),
  actor_role: Nullable(Type.String()),
  method: Type.String(),
  route: Type.String(),
  path: Type.String(),
  resource: Nullable(Type.String()),
  action: Nullable(Type.String()),
  resource_id: Nullable(Type.String()),
  fields: Type.Array(Type.String()),
  changes: Type.Record(Type.String(), Type.Unknown()),
  before_after: Type.Array(Change),
  in_transaction: Type.Boolean(),
  ip: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
});

const AuditQuery = Type.Object(
  {
    ...pageQuery(50),
    actor_id: Type.Optional(Id),
    resource: Type.Optional(Id),
    resource_id: Type.Optional(Id),
    action: Type.Optional(Id),
    method: Type.Optional(Type.Union(['POST', 'PUT', 'PATCH', 'DELETE', 'CLI', 'JOB'].map((m) => Type.Literal(m)))),
    created_at: Type.Optional(
      Type.Object(
        { gte: Type.Optional(Type.String({ maxLength: 40 })), lt: Type.Optional(Type.String({ maxLength: 40 })) },
        { additionalProperties: false },
      ),
    ),
    count: Type.Optional(Type.Boolean({ default: true, description: 'false: answer count null, skip counting' })),
  },
  { additionalProperties: false },
);

/** `/admin/audit-log` (our own; Medusa's is enterprise-only): every admin write, newest first. */
export const adminAuditRoutes: RouteModule = adminResource('audit', (app) => {
  app.get(
    '/audit-log',
    {
      schema: {
        tags: ['audit'],
        summary: 'Admin writes: who, what, when, from where (filters: actor, resource, action, date range)',
        querystring: AuditQuery,
        response: ok(
          Type.Object({
            audit_entries: Type.Array(AuditEntry),
            count: Nullable(Type.Integer()),
            limit: Type.Integer(),
            offset: Type.Integer(),
          }),
        ),
      },
    },
    async (req) => {
      const q = req.query;
      const page = pageOf(q, 50);
      const { entries, count } = await listAuditEntries(
        req.ctx.db,
        {
          actor_id: q.actor_id,
          resource: q.resource,
          resource_id: q.resource_id,
          action: q.action,
          method: q.method,
          from: filterDate(q.created_at?.gte, 'created_at[gte]'),
          to: filterDate(q.created_at?.lt, 'created_at[lt]'),
        },
        { ...page, count: q.count !== false },
      );
      return { audit_entries: entries, count, ...page };
    },
  );
});
