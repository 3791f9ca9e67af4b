import { Type } from 'typebox';
import { pageQuery } from '../../platform/http/pagination.ts';
import { Nullable } from '../../platform/http/schema-types.ts';

const FileKind = Type.Union([Type.Literal('input'), Type.Literal('result'), Type.Literal('errors')]);

export const JobFileView = Type.Object({
  kind: FileKind,
  filename: Type.String(),
  /** Admin-authenticated download of the file (`GET /admin/jobs/{id}/files/{kind}`). */
  url: Type.String(),
});

export const JobView = Type.Object({
  id: Type.String(),
  type: Type.String({
    description: 'product_import, product_export, order_export, customer_export, inventory_item_export',
  }),
  status: Type.String({
    description: 'awaiting_confirmation, pending, running, succeeded, failed, canceled',
  }),
  progress: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  result: Nullable(Type.Record(Type.String(), Type.Unknown())),
  error: Nullable(Type.String()),
  attempts: Type.Integer(),
  created_by: Nullable(Type.String()),
  files: Type.Array(JobFileView),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  started_at: Nullable(Type.String({ format: 'date-time' })),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
});

export const JobListQuery = Type.Object({
  ...pageQuery(20),
  type: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(Type.String({ maxLength: 100 })),
});

export const JobFileParams = Type.Object({ id: Type.String({ maxLength: 200 }), kind: FileKind });
