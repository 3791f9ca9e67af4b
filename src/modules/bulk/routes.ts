import multipart from '@fastify/multipart';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import type { Ctx } from '../../platform/context.ts';
import { AppError, errors } from '../../platform/http/errors.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import type { App, RouteModule } from '../../platform/http/types.ts';
import { jobActorOf } from '../audit/job-entry.ts';
import { AdminCustomerQuery } from '../customers/schema.ts';
import { InventoryItemQuery } from '../inventory/schema.ts';
import { AdminOrderQuery } from '../orders/desk-schema.ts';
import { listOrders } from '../orders/listing.ts';
import { AdminListQuery } from '../products/schema.ts';
import { CUSTOMER_EXPORT, ORDER_EXPORT } from './desk-export.ts';
import { startExport } from './export-service.ts';
import { confirmProductImport, previewProductImport } from './import-service.ts';
import { INVENTORY_EXPORT } from './inventory-export.ts';
import { PRODUCT_EXPORT } from './product-export.ts';
import { dropStagedImport, readStagedImport } from './staged-uploads.ts';

const tags = ['products'];
/** A CSV of 50,000 rows with long descriptions stays well below this. */
const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

const Issue = Type.Object({ row: Type.Integer(), column: Type.String(), reason: Type.String() });
const ImportSummary = Type.Object({
  toCreate: Type.Integer(),
  toUpdate: Type.Integer(),
  rows: Type.Integer(),
  rows_with_errors: Type.Integer(),
  errors: Type.Array(Issue, { description: 'rows left out, with why (the first 1,000; the error report has all)' }),
  warnings: Type.Array(Issue),
  ignored_columns: Type.Array(Type.String()),
  to_make: Type.Object({ tags: Type.Integer(), types: Type.Integer(), collections: Type.Integer() }),
});
/** Medusa's AdminImportProducts: the upload's id and what the client knew of the file. */
const ImportFromUpload = Type.Object(
  {
    file_key: Type.String({ minLength: 1, maxLength: 200 }),
    originalname: Type.String({ maxLength: 255 }),
    extension: Type.String({ maxLength: 50 }),
    size: Type.Integer({ minimum: 0 }),
    mime_type: Type.String({ maxLength: 255 }),
  },
  { additionalProperties: false },
);
const TransactionParams = Type.Object({ transaction_id: Type.String({ minLength: 1, maxLength: 200 }) });
const Started = Type.Object({ transaction_id: Type.String({ description: 'the job id: GET /admin/jobs/{id}' }) });
const ExportBody = Type.Optional(Type.Object({}, { additionalProperties: true }));

const streamedBody: FastifySchemaCompiler<unknown> = () => (data) => ({ value: data });

async function readCsvUpload(req: FastifyRequest): Promise<{ filename: string; text: string }> {
  if (!req.isMultipart()) throw errors.invalid('import_file_required');
  let file: { filename: string; text: string } | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') continue;
      const bytes = await part.toBuffer();
      if (!file)
        file = { filename: (part.filename || 'products.csv').split('\u0000').join(''), text: bytes.toString('utf8') };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; message?: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw errors.invalid('import_unreadable', { detail: 'file too large' });
    throw errors.invalid('import_unreadable', { detail: e.message ?? 'unreadable upload' });
  }
  if (!file) throw errors.invalid('import_file_required');
  if (file.text.includes('\u0000')) throw errors.invalid('import_unreadable', { detail: 'the file is not text' });
  return file;
}

/** Medusa's product import (upload → preview → confirm) and export, as background jobs. */
export const productBulkRoutes: RouteModule = adminResource('products', async (app) => {
  await app.register(async (scope: App) => {
    await scope.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10, parts: 11 } });
    scope.post(
      '/products/import',
      {
        schema: {
          tags,
          summary:
            'Upload a product CSV (Medusa’s columns): a preview of what would be created and updated, with the rows left out',
          consumes: ['multipart/form-data'],
          body: Type.Object({ file: Type.Unsafe<unknown>({ type: 'string', format: 'binary' }) }),
          response: { 202: Type.Object({ transaction_id: Type.String(), summary: ImportSummary }) },
        },
        validatorCompiler: streamedBody,
        bodyLimit: MAX_IMPORT_BYTES + 64 * 1024,
      },
      async (req, reply) => reply.code(202).send(await previewProductImport(req.ctx, await readCsvUpload(req))),
    );
  });

  app.post(
    '/products/imports',
    {
      schema: {
        tags,
        summary:
          'Start an import from a CSV uploaded before (POST /admin/uploads; Medusa’s createImport): the same preview as POST /admin/products/import',
        body: ImportFromUpload,
        response: { 202: Type.Object({ transaction_id: Type.String(), summary: ImportSummary }) },
      },
    },
    async (req, reply) => {
      const file = await readStagedImport(req.ctx, req.body.file_key);
      const preview = await previewProductImport(req.ctx, {
        filename: req.body.originalname || file.filename,
        text: file.text,
      });
      await dropStagedImport(req.ctx, req.body.file_key);
      return reply.code(202).send(preview);
    },
  );

  for (const prefix of ['/products/import', '/products/imports']) {
    app.post(
      `${prefix}/:transaction_id/confirm`,
      {
        schema: {
          tags,
          summary: 'Confirm a previewed import: it runs as a background job (GET /admin/jobs/{transaction_id})',
          params: TransactionParams,
          response: { 202: Started },
        },
      },
      async (req, reply) => {
        const by = jobActorOf(req.ctx.actor, { ip: req.ip, userAgent: req.headers['user-agent'] });
        await confirmProductImport(req.ctx, req.params.transaction_id, by);
        return reply.code(202).send({ transaction_id: req.params.transaction_id });
      },
    );
  }

  exportRoute(app, '/products/export', {
    tags,
    summary: 'Export the products the list’s filters match to CSV, as a background job',
    querystring: AdminListQuery,
    job: PRODUCT_EXPORT,
  });
});

export const orderBulkRoutes: RouteModule = adminResource('orders', (app) => {
  exportRoute(app, '/orders/export', {
    tags: ['orders'],
    summary: 'Export the orders the list’s filters match to CSV, as a background job',
    querystring: AdminOrderQuery,
    job: ORDER_EXPORT,
    // The list's own checks (dates, sort field) refuse a bad filter now, not in the job later.
    check: (ctx, query) => listOrders(ctx, query, { limit: 0, offset: 0 }),
  });
});

export const customerBulkRoutes: RouteModule = adminResource('customers', (app) => {
  exportRoute(app, '/customers/export', {
    tags: ['customers'],
    summary: 'Export the customers the list’s filters match to CSV, as a background job',
    querystring: AdminCustomerQuery,
    job: CUSTOMER_EXPORT,
  });
});

/** Medusa 2.21's inventory export: `/inventory-items/export` (static, so no item id `export` is looked up). */
export const inventoryBulkRoutes: RouteModule = adminResource('inventory', (app) => {
  exportRoute(app, '/inventory-items/export', {
    tags: ['inventory-items'],
    summary:
      'Export the inventory items the list’s filters match to CSV (levels per location, one row per variant), as a background job',
    querystring: InventoryItemQuery,
    job: INVENTORY_EXPORT,
  });
});

/**
 * `POST <url>`: export what the list's filters (its querystring) match to CSV as a background
 * job, answering 202 with the job's id. A read: who may list may export. `check` refuses a bad
 * filter before the job starts.
 */
function exportRoute<Q extends TSchema>(
  app: App,
  url: string,
  route: {
    tags: string[];
    summary: string;
    querystring: Q;
    job: string;
    check?: (ctx: Ctx, query: Static<Q>) => Promise<unknown>;
  },
): void {
  const { tags, summary, querystring, job, check } = route;
  app.post(
    url,
    {
      schema: { tags, summary, querystring, body: ExportBody, response: { 202: Started } },
      config: { action: 'read' },
    },
    async (req, reply) => {
      const query = req.query as Static<Q>;
      if (check) await check(req.ctx, query);
      return reply.code(202).send(await startExport(req.ctx, job, query as Record<string, unknown>));
    },
  );
}
