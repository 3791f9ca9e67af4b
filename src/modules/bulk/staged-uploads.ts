import { eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { importUploads } from './tables.ts';

/** What `POST /admin/uploads` may take for an import rather than as an image: a CSV, by its name or type. */
export function isImportFile(file: { filename: string; mimetype?: string; bytes: Buffer }): boolean {
  const csvName = /\.(csv|tsv|txt)$/i.test(file.filename);
  const csvType = /^(text\/(csv|plain|tab-separated-values)|application\/(vnd\.ms-excel|csv))\b/i.test(
    file.mimetype ?? '',
  );
  return (csvName || csvType) && !file.bytes.includes(0);
}

/**
 * Keeps uploaded CSVs until an import takes them; answers them as `POST /admin/uploads` does.
 * A private file has no address to load it from: its `url` is empty.
 */
export async function stageImportFiles(ctx: Ctx, files: { filename: string; bytes: Buffer }[]) {
  const now = ctx.clock.now();
  const staged = files.map((f) => ({
    id: newId('file'),
    filename: f.filename.slice(0, 255),
    content: f.bytes.toString('utf8'),
    size: f.bytes.length,
    created_by: ctx.actor?.id ?? null,
    created_at: now,
  }));
  await ctx.db.insert(importUploads).values(staged);
  return staged.map((f) => ({ id: f.id, url: '' }));
}

/** The staged file `id` (`file_key` of `POST /admin/products/imports`), or 404. */
export async function readStagedImport(ctx: Ctx, id: string): Promise<{ filename: string; text: string }> {
  const [row] = await ctx.db.select().from(importUploads).where(eq(importUploads.id, id));
  if (!row) throw errors.notFound('import_upload_not_found', { id });
  return { filename: row.filename, text: row.content };
}

/** Once its import holds the file (as the job's input), the staged copy goes. */
export async function dropStagedImport(ctx: Ctx, id: string): Promise<void> {
  await ctx.db.delete(importUploads).where(eq(importUploads.id, id));
}
