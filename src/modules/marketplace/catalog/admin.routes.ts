import type { FastifySchemaCompiler } from 'fastify';
import { emptyBodyIsObject } from '../../../platform/http/body.ts';
import { ok } from '../../../platform/http/responses.ts';
import { IdParams } from '../../../platform/http/schema-types.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { getAdminItem, listAdminItems, unpublishAdminItem, updateAdminItem } from './admin-items.ts';
import { publishUpload } from './publish.ts';
import { setRollout } from './rollout.ts';
import { findItemById } from './queries.ts';
import { assertOwnsNamespace } from '../vendors/lookup.ts';
import { crashReportsOf } from './crash-reports.ts';
import { CrashReportsResponse } from './schema.ts';
import { decideVersion } from './review.ts';
import {
  AdminItemEnvelope,
  AdminItemList,
  AdminItemsQuery,
  ApproveBody,
  PublishForm,
  RejectBody,
  ReviewParams,
  RolloutBody,
  UpdateItemBody,
} from './schema.ts';
import { readUpload } from './upload.ts';

const tags = ['marketplace (vendor)'];

/** The upload body is a stream that readUpload validates; its schema is there for the OpenAPI document. */
const streamedBody: FastifySchemaCompiler<unknown> = () => (data) => ({ value: data });

/** The vendor side of the catalog, inside /admin/marketplace (multipart registered there): publish, list, edit, unpublish. */
export function registerCatalogAdminRoutes(scope: App, deps: AppDeps): void {
  scope.post(
    '/items',
    {
      config: { vendorScope: 'publish' },
      schema: {
        tags,
        summary: 'Publish a plugin version (multipart upload)',
        consumes: ['multipart/form-data'],
        body: PublishForm,
        response: ok(AdminItemEnvelope),
      },
      validatorCompiler: streamedBody,
    },
    async (req) => ({ item: await publishUpload(req.ctx, deps, await readUpload(req)) }),
  );

  scope.get(
    '/items',
    {
      config: { vendorScope: 'read' },
      schema: {
        tags,
        summary: 'Catalog items, published or not (a vendor sees its own)',
        querystring: AdminItemsQuery,
        response: ok(AdminItemList),
      },
    },
    async (req) => listAdminItems(req.ctx, req.query),
  );

  scope.get(
    '/items/:id',
    {
      config: { vendorScope: 'read' },
      schema: {
        tags,
        summary: 'One catalog item with all its versions',
        params: IdParams,
        response: ok(AdminItemEnvelope),
      },
    },
    async (req) => ({ item: await getAdminItem(req.ctx, req.params.id) }),
  );

  const updateSchema = {
    tags,
    summary: 'Set price, billing, changelog URL or description',
    params: IdParams,
    body: UpdateItemBody,
    response: ok(AdminItemEnvelope),
  };
  for (const method of ['POST', 'PATCH'] as const) {
    scope.route({
      method,
      url: '/items/:id',
      config: { vendorScope: 'publish' },
      schema: updateSchema,
      handler: async (req) => ({ item: await updateAdminItem(req.ctx, req.params.id, req.body) }),
    });
  }

  scope.post(
    '/items/:id/unpublish',
    {
      config: { vendorScope: 'publish' },
      schema: {
        tags,
        summary: 'Remove from the feed; its versions stop downloading',
        params: IdParams,
        response: ok(AdminItemEnvelope),
      },
    },
    async (req) => ({ item: await unpublishAdminItem(req.ctx, req.params.id) }),
  );

  // Review decisions are the operator's alone: no vendorScope, so a vendor token gets 403.
  scope.post(
    '/items/:id/versions/:version_id/approve',
    {
      schema: {
        tags: ['marketplace (operator)'],
        summary: 'Approve a version in review (one that failed a check: with override and a reason)',
        params: ReviewParams,
        body: ApproveBody,
        response: ok(AdminItemEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({
      item: await decideVersion(req.ctx, req.params.id, req.params.version_id, { decision: 'approved', ...req.body }),
    }),
  );
  scope.post(
    '/items/:id/versions/:version_id/reject',
    {
      schema: {
        tags: ['marketplace (operator)'],
        summary: 'Reject a version in review, with the reason its vendor reads',
        params: ReviewParams,
        body: RejectBody,
        response: ok(AdminItemEnvelope),
      },
    },
    async (req) => ({
      item: await decideVersion(req.ctx, req.params.id, req.params.version_id, {
        decision: 'rejected',
        reason: req.body.reason,
      }),
    }),
  );

  scope.post(
    '/items/:id/versions/:version_id/rollout',
    {
      config: { vendorScope: 'publish' },
      preValidation: async (req) => {
        const item = await findItemById(req.ctx.db, (req.params as { id: string }).id);
        if (item) await assertOwnsNamespace(req.ctx, item.vendor);
      },
      schema: {
        tags: ['marketplace (vendor)'],
        summary: 'Set the share of shops offered a version (staged rollout), halt or resume it',
        params: ReviewParams,
        body: RolloutBody,
        response: ok(AdminItemEnvelope),
      },
    },
    async (req) => ({ item: await setRollout(req.ctx, req.params.id, req.params.version_id, req.body) }),
  );

  scope.get(
    '/items/:id/crash-reports',
    {
      config: { vendorScope: 'read' },
      schema: {
        tags: ['marketplace (vendor)'],
        summary: 'Crash-loop rollbacks shops reported, per version',
        params: IdParams,
        response: ok(CrashReportsResponse),
      },
    },
    async (req) => crashReportsOf(req.ctx, req.params.id),
  );
}
