import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import multipart from '@fastify/multipart';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { Type } from 'typebox';
import { AppError, appError, errors } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App, AppDeps, RouteModule } from '../../platform/http/types.ts';
import { deleteFile, getFile, type IncomingFile, uploadFiles } from './service.ts';
import { sniffImage, typeOfExtension } from './sniff.ts';
import { storageFor } from './storage.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { newId } from '../../platform/ids.ts';
import { isImportFile, stageImportFiles } from '../bulk/staged-uploads.ts';

const tags = ['uploads'];
const MAX_FILES = 10;
const FileView = Type.Object({ id: Type.String(), url: Type.String() });
const PresignBody = Type.Object(
  {
    originalname: Type.String({ minLength: 1, maxLength: 255 }),
    mime_type: Type.String({ minLength: 3, maxLength: 255 }),
    size: Type.Integer({ minimum: 0 }),
    access: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('private')])),
  },
  { additionalProperties: false },
);
const PresignAnswer = Type.Object({
  url: Type.String(),
  filename: Type.String(),
  mime_type: Type.String(),
  size: Type.Integer(),
  extension: Type.String(),
  originalname: Type.String(),
});
const UploadForm = Type.Object({
  files: Type.Array(Type.Unsafe<unknown>({ type: 'string', format: 'binary' }), {
    description: `one to ${MAX_FILES} images (JPEG, PNG, GIF, WebP, AVIF)`,
  }),
});

/** The body is a stream that readFiles checks; the schema above is there for the OpenAPI document. */
const streamedBody: FastifySchemaCompiler<unknown> = () => (data) => ({ value: data });

function multipartError(err: { code?: string; message?: string }, maxBytes: number) {
  switch (err.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return appError('file_too_large', { max: maxBytes });
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return errors.invalid('too_many_files', { max: MAX_FILES });
    default:
      return errors.invalid('upload_unreadable', { detail: err.message ?? 'unreadable body' });
  }
}

async function readFiles(req: FastifyRequest, maxBytes: number): Promise<(IncomingFile & { mimetype?: string })[]> {
  if (!req.isMultipart()) throw errors.invalid('upload_not_multipart');
  const files: (IncomingFile & { mimetype?: string })[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') throw errors.invalid('upload_unknown_field', { field: part.fieldname });
      // The name arrives in the multipart header, past the body guard that refuses NUL everywhere
      // else (`filename*=utf-8''a%00.png` decodes to one), and PostgreSQL cannot store it.
      if (part.filename?.includes('\u0000')) throw errors.invalid('upload_filename_nul');
      files.push({ filename: part.filename || 'file', mimetype: part.mimetype, bytes: await part.toBuffer() });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw multipartError(err as { code?: string; message?: string }, maxBytes);
  }
  if (!files.length) throw errors.invalid('upload_files_required');
  return files;
}

export const adminUploadRoutes: RouteModule = adminResource('products', async (app, deps) => {
  const storage = storageFor(deps.config.storage, deps.config.publicUrl);
  const maxBytes = deps.config.storage.maxBytes;
  await app.register(async (scope: App) => {
    await scope.register(multipart, { limits: { fileSize: maxBytes, files: MAX_FILES, fields: 0, parts: MAX_FILES } });
    scope.post(
      '/uploads',
      {
        schema: {
          tags,
          summary:
            'Upload images (multipart); answers their absolute URLs. CSV files are kept privately for an import (POST /admin/products/imports with the id) and answer an empty url',
          consumes: ['multipart/form-data'],
          body: UploadForm,
          response: ok(Type.Object({ files: Type.Array(FileView) })),
        },
        validatorCompiler: streamedBody,
      },
      async (req) => {
        const files = await readFiles(req, maxBytes);
        // Medusa's createImport sends the product CSV here first: all CSV, it waits for its import.
        if (files.every((f) => isImportFile(f) && !sniffImage(f.bytes)))
          return { files: await stageImportFiles(req.ctx, files) };
        return { files: await uploadFiles(req.ctx, storage, files) };
      },
    );
  });

  app.post(
    '/uploads/presigned-urls',
    {
      schema: {
        tags,
        summary:
          'Where to send a file before using it (Medusa’s createImport): this shop takes uploads itself, so the url is /admin/uploads',
        body: PresignBody,
        response: ok(PresignAnswer),
      },
    },
    async (req) => {
      const [type, subtype] = req.body.mime_type.toLowerCase().split(';')[0].trim().split('/');
      if (!type || !subtype) throw errors.invalid('upload_type_invalid', { type: req.body.mime_type });
      const extension = subtype.replace(/^x-/, '').replace(/[^a-z0-9.+-]/g, '');
      return {
        url: '/admin/uploads',
        filename: `${newId('file').slice(5).toLowerCase()}.${extension}`,
        mime_type: `${type}/${subtype}`,
        size: req.body.size,
        extension,
        originalname: req.body.originalname,
      };
    },
  );

  app.get(
    '/uploads/:id',
    {
      schema: {
        tags,
        summary: 'Get an uploaded file',
        params: IdParams,
        response: ok(Type.Object({ file: FileView })),
      },
    },
    async (req) => ({ file: await getFile(req.ctx, storage, req.params.id) }),
  );

  deleteByIdRoute(app, '/uploads/:id', {
    tags,
    summary: 'Delete an uploaded file',
    object: 'file',
    remove: (req) => deleteFile(req.ctx, storage, req.params.id),
  });
});

const KEY = /^[a-z0-9-]{1,100}\.(jpg|png|gif|webp|avif)$/;

/**
 * `GET /static/uploads/{key}`: files of the local storage, public like the product pages that
 * show them. Names are checked against the pattern keys are made with (no paths); the type
 * comes from the extension we gave the file, and browsers may not sniff or run anything.
 */
export async function registerUploadStatic(app: App, deps: AppDeps): Promise<void> {
  const storage = storageFor(deps.config.storage, deps.config.publicUrl);
  app.get(
    '/static/uploads/:key',
    {
      schema: {
        tags,
        summary: 'An uploaded file (local storage)',
        params: Type.Object({ key: Type.String({ maxLength: 120 }) }),
        response: { 200: Type.Unsafe<unknown>({ type: 'string', format: 'binary' }), '4xx': Type.Unsafe<unknown>({}) },
      },
    },
    async (req, reply) => {
      const { key } = req.params;
      const bytes = KEY.test(key) && deps.config.storage.kind === 'local' ? await storage.get(key) : undefined;
      if (!bytes) throw errors.notFound('file_content_not_found');
      return reply
        .type(typeOfExtension(key.split('.').pop()!)!)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(bytes);
    },
  );
}
