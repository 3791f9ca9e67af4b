import multipart from '@fastify/multipart';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { Type } from 'typebox';
import { AppError, errors } from '../../platform/http/errors.ts';
import { deletedEnvelope } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App, AppDeps, RouteModule } from '../../platform/http/types.ts';
import { deleteFile, getFile, type IncomingFile, uploadFiles } from './service.ts';
import { typeOfExtension } from './sniff.ts';
import { storageFor } from './storage.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['uploads'];
const MAX_FILES = 10;
const FileView = Type.Object({ id: Type.String(), url: Type.String() });
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
      return new AppError('payload_too_large', `A file is larger than ${maxBytes} bytes`);
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return errors.invalid(`Upload at most ${MAX_FILES} files at once`);
    default:
      return errors.invalid(`Invalid multipart upload: ${err.message ?? 'unreadable body'}`);
  }
}

async function readFiles(req: FastifyRequest, maxBytes: number): Promise<IncomingFile[]> {
  if (!req.isMultipart()) throw errors.invalid(`Invalid request: send multipart/form-data with the images in 'files'`);
  const files: IncomingFile[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') throw errors.invalid(`Invalid request: Unrecognized fields: '${part.fieldname}'`);
      // The name arrives in the multipart header, past the body guard that refuses NUL everywhere
      // else (`filename*=utf-8''a%00.png` decodes to one), and PostgreSQL cannot store it.
      if (part.filename?.includes('\u0000'))
        throw errors.invalid('Invalid request: a file name contains a NUL character');
      files.push({ filename: part.filename || 'file', bytes: await part.toBuffer() });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw multipartError(err as { code?: string; message?: string }, maxBytes);
  }
  if (!files.length) throw errors.invalid(`Invalid request: Field 'files' is required`);
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
          summary: 'Upload images (multipart); answers their absolute URLs',
          consumes: ['multipart/form-data'],
          body: UploadForm,
          response: ok(Type.Object({ files: Type.Array(FileView) })),
        },
        validatorCompiler: streamedBody,
      },
      async (req) => ({ files: await uploadFiles(req.ctx, storage, await readFiles(req, maxBytes)) }),
    );
  });

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

  app.delete(
    '/uploads/:id',
    { schema: { tags, summary: 'Delete an uploaded file', params: IdParams, response: ok(deletedEnvelope('file')) } },
    async (req) => deleteFile(req.ctx, storage, req.params.id),
  );
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
      if (!bytes) throw errors.notFound('File not found');
      return reply
        .type(typeOfExtension(key.split('.').pop()!)!)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(bytes);
    },
  );
}
