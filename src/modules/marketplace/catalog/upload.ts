import type { FastifyRequest } from 'fastify';
import { AppError, errors } from '../../../platform/http/errors.ts';
import { PACKAGE_LIMITS } from '../../../plugin-package/limits.ts';
import type { Upload } from './publish.ts';

export const UPLOAD_FIELDS = ['price_eur', 'changelog_url', 'description', 'rollout_percent', 'billing'] as const;

/** @fastify/multipart options for the publish route: one file of at most 10 MiB, a few short fields. */
export const MULTIPART_LIMITS = {
  fileSize: PACKAGE_LIMITS.compressedBytes,
  files: 1,
  fields: UPLOAD_FIELDS.length,
  fieldSize: 20_000,
  parts: 1 + UPLOAD_FIELDS.length,
};

const MiB = 1024 * 1024;

/** multipart's own errors, reworded for the vendor; all are bad input (400). */
function uploadError(err: { code?: string; message?: string }) {
  switch (err.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return errors.invalid('marketplace_package_too_large', { mib: PACKAGE_LIMITS.compressedBytes / MiB });
    case 'FST_FILES_LIMIT':
      return errors.invalid('marketplace_upload_one_file');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return errors.invalid('marketplace_upload_too_many_fields', { allowed: UPLOAD_FIELDS.join(', ') });
    default:
      return errors.invalid('marketplace_upload_unreadable', { detail: err.message ?? 'unreadable body' });
  }
}

/** Reads the publish form: the tarball from the field `file` plus optional text fields. */
export async function readUpload(req: FastifyRequest): Promise<Upload> {
  if (!req.isMultipart()) throw errors.invalid('marketplace_upload_not_multipart');
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file')
          throw errors.invalid('marketplace_upload_wrong_file_field', { field: part.fieldname });
        file = await part.toBuffer();
      } else if ((UPLOAD_FIELDS as readonly string[]).includes(part.fieldname)) {
        fields[part.fieldname] = String(part.value);
      } else {
        throw errors.invalid('marketplace_upload_unknown_field', { field: part.fieldname });
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw uploadError(err as { code?: string; message?: string });
  }
  if (!file) throw errors.invalid('marketplace_upload_file_required');
  return { file, fields };
}
