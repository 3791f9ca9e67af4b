import { createHash } from 'node:crypto';
import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { assertOwnsNamespace } from '../vendors/lookup.ts';
import * as q from './queries.ts';

/**
 * Crash reports: a shop whose update crash-looped and rolled back tells the marketplace (the
 * version, the one it went back to, the reason, its instance token, kept only as a sha256). One
 * row per version and instance, counted again on each report; the vendor reads them per version.
 */

const instanceHash = (id: string) => createHash('sha256').update(id).digest('hex');

export interface CrashReportInput {
  marketplace_id: string;
  version: string;
  rolled_back_to?: string;
  reason: string;
  instance_id: string;
}

export async function recordCrashReport(ctx: Ctx, input: CrashReportInput): Promise<void> {
  const [item] = await q.findItemsByMarketplaceIds(ctx.db, [input.marketplace_id], false);
  const version = item ? await q.findVersion(ctx.db, item.id, input.version, false) : undefined;
  if (!item || !version)
    throw errors.notFound('marketplace_version_not_found', {
      version: input.version,
      marketplace_id: input.marketplace_id,
    });
  await q.upsertCrashReport(ctx.db, version.id, instanceHash(input.instance_id), input, ctx.clock.now());
}

/** The vendor's (or operator's) view: per version, how many shops rolled it back and their latest reasons. */
export async function crashReportsOf(ctx: Ctx, itemId: string) {
  const item = await q.findItemById(ctx.db, itemId);
  if (!item) throw errors.notFound('marketplace_item_missing', { id: itemId });
  await assertOwnsNamespace(ctx, item.vendor);
  const versions = await q.listVersionRows(ctx.db, [item.id]);
  const ids = versions.map((v) => v.id);
  const rows = await q.listCrashReports(ctx.db, ids);
  return {
    crash_reports: versions
      .map((v) => {
        const mine = rows.filter((r) => r.version_id === v.id);
        return {
          version_id: v.id,
          version: v.version,
          instances: mine.length,
          reports: mine.reduce((n, r) => n + r.reports, 0),
          last_reported_at: mine[0]?.last_reported_at ?? null,
          reasons: mine.slice(0, 5).map((r) => ({
            reason: r.reason,
            rolled_back_to: r.rolled_back_to,
            at: r.last_reported_at,
          })),
        };
      })
      .filter((v) => v.instances > 0),
  };
}
