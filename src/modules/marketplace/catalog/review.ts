import { inTx, type Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { adminItem, type AdminItem } from './item-json.ts';
import * as q from './queries.ts';
import { appendApproved } from '../log/log.ts';
import { failedNames } from './review-checks.ts';

export interface Decision {
  decision: 'approved' | 'rejected';
  reason?: string;
  /** Approving a version that failed an automatic check: the operator acknowledges the failed checks. */
  override?: boolean;
}

/**
 * The operator's decision on a version in review: `approved` puts it in the feed, downloads and
 * updates; `rejected` keeps it out, with the reason its vendor reads in its item's versions.
 * Only a version still `in_review` can be decided (409 otherwise: a decision is not silently
 * overwritten); revoking an approved version is the revocation list's job. A version that failed
 * an automatic check (the operator's own upload waits in review with them) is approved only with
 * `override` and a reason, so a broken bundle never reaches shops by a slip.
 */
export async function decideVersion(
  ctx: Ctx,
  itemId: string,
  versionId: string,
  { decision, reason, override }: Decision,
): Promise<AdminItem> {
  return inTx(ctx, async (tctx) => {
    const item = await q.findItemById(tctx.tx, itemId);
    const version = item ? await q.findVersionById(tctx.tx, versionId) : undefined;
    if (!item || !version || version.item_id !== item.id)
      throw errors.notFound('marketplace_version_id_not_found', { id: versionId });
    if (version.status !== 'in_review')
      throw errors.conflict('marketplace_version_decided', {
        version: version.version,
        marketplace_id: item.marketplace_id,
        status: version.status,
      });
    const failed = version.review_checks ? failedNames(version.review_checks) : '';
    if (decision === 'approved' && failed && !(override && reason?.trim()))
      throw errors.conflict('marketplace_review_override_required', {
        version: version.version,
        marketplace_id: item.marketplace_id,
        failed,
      });
    const now = tctx.clock.now();
    await q.updateVersionRow(tctx.tx, version.id, {
      status: decision,
      review_reason: reason ?? null,
      reviewed_at: now,
    });
    if (decision === 'approved') await appendApproved(tctx, item.marketplace_id, version);
    const updated = await q.updateItemRow(tctx.tx, item.id, { updated_at: now });
    return adminItem(updated!, await q.listVersionRows(tctx.tx, [item.id]));
  });
}
