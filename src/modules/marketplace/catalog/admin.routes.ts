import type { FastifySchemaCompiler } from 'fastify';
import { ok } from '../../../platform/http/responses.ts';
import { IdParams } from '../../../platform/http/schema-types.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { getAdminItem, listAdminItems, unpublishAdminItem, updateAdminItem } from './admin-items.ts';
import { publishUpload } from './publish.ts';
import { AdminItemEnvelope, AdminItemList, AdminItemsQuery, PublishForm, UpdateItemBody } from './schema.ts';
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
    async (req) => ({ item: await publishUpload(req.ctx, deps.config.encryptionKey, await readUpload(req)) }),
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
    summary: 'Set price, changelog URL or description',
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
}
