import { Type } from 'typebox';
import { listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { JobFileParams, JobListQuery, JobView } from './schema.ts';
import { cancelJob, getJob, getJobFile, listJobs } from './service.ts';

const tags = ['jobs'];

/** Background jobs (imports and exports): their progress, result and files; canceling one. */
export const adminJobRoutes: RouteModule = adminResource('jobs', (app) => {
  app.get(
    '/jobs',
    {
      schema: {
        tags,
        summary: 'Background jobs, newest first',
        querystring: JobListQuery,
        response: ok(listEnvelope('jobs', JobView)),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 20);
      return { ...(await listJobs(req.ctx, req.query, page)), ...page };
    },
  );

  app.get(
    '/jobs/:id',
    {
      schema: {
        tags,
        summary: 'A job and its progress',
        params: IdParams,
        response: ok(Type.Object({ job: JobView })),
      },
    },
    async (req) => ({ job: await getJob(req.ctx, req.params.id) }),
  );

  app.post(
    '/jobs/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a job that has not ended (a running one stops at its next batch)',
        params: IdParams,
        response: ok(Type.Object({ job: JobView })),
      },
    },
    async (req) => ({ job: await cancelJob(req.ctx, req.params.id) }),
  );

  app.get(
    '/jobs/:id/files/:kind',
    {
      schema: {
        tags,
        summary: "Download a job's result (CSV) or its error report",
        params: JobFileParams,
        produces: ['text/csv'],
        response: { 200: Type.String() },
      },
    },
    async (req, reply) => {
      const file = await getJobFile(req.ctx, req.params.id, req.params.kind);
      const name = file.filename.replace(/["\\\r\n]/g, '_');
      return reply
        .header('content-type', `${file.content_type}; charset=utf-8`)
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(file.content);
    },
  );
});
