import { eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { ACCEPTED_TYPES, safeStem, sniffImage } from './sniff.ts';
import type { FileStorage } from './storage.ts';
import { uploadedFiles } from './tables.ts';

export interface IncomingFile {
  filename: string;
  bytes: Buffer;
}

export interface FileView {
  id: string;
  url: string;
}

const notFound = (id: string) => errors.notFound('file_not_found', { id });

/**
 * Checks every file first (a recognised image, not empty), then stores them and records them;
 * if recording fails, the stored bytes are removed again, so a failed upload leaves nothing.
 */
export async function uploadFiles(ctx: Ctx, storage: FileStorage, files: IncomingFile[]): Promise<FileView[]> {
  const prepared = files.map((f) => {
    const kind = sniffImage(f.bytes);
    if (!kind) {
      throw errors.invalid('file_type_refused', {
        filename: f.filename.slice(0, 200),
        accepted: ACCEPTED_TYPES.join(', '),
      });
    }
    const id = newId('file');
    const key = `${id.slice(5).toLowerCase()}-${safeStem(f.filename)}.${kind.ext}`;
    return { id, key, filename: f.filename.slice(0, 255), mime_type: kind.type, size: f.bytes.length, bytes: f.bytes };
  });
  const stored: string[] = [];
  try {
    for (const f of prepared) {
      await storage.put(f.key, f.bytes, f.mime_type);
      stored.push(f.key);
    }
    const now = ctx.clock.now();
    if (prepared.length) {
      await ctx.db.insert(uploadedFiles).values(prepared.map(({ bytes: _b, ...row }) => ({ ...row, created_at: now })));
    }
  } catch (err) {
    await Promise.allSettled(stored.map((key) => storage.delete(key)));
    throw err;
  }
  return prepared.map((f) => ({ id: f.id, url: storage.url(f.key) }));
}

export async function getFile(ctx: Ctx, storage: FileStorage, id: string): Promise<FileView> {
  const [row] = await ctx.db.select().from(uploadedFiles).where(eq(uploadedFiles.id, id));
  if (!row) throw notFound(id);
  return { id, url: storage.url(row.key) };
}

/** Forgets the file and removes its bytes; product images that still point at its URL stop loading. */
export async function deleteFile(ctx: Ctx, storage: FileStorage, id: string) {
  const [row] = await ctx.db.delete(uploadedFiles).where(eq(uploadedFiles.id, id)).returning();
  if (!row) throw notFound(id);
  await storage.delete(row.key);
  return { id, object: 'file' as const, deleted: true as const };
}
