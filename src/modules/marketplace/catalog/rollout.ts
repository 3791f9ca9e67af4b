import { createHash } from 'node:crypto';
import { inTx, type Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { assertOwnsNamespace } from '../vendors/lookup.ts';
import { adminItem, type AdminItem } from './item-json.ts';
import * as q from './queries.ts';

/**
 * Staged rollouts. A version is offered (feed, item page, updates) to `rollout_percent` of shops:
 * a shop is in when the stable bucket of its instance id for this item (0–99, from a sha256)
 * is below the percentage, so raising 10 → 50 → 100 only adds shops. A halted rollout is
 * offered to none; a shop that sends no instance id sees only fully rolled-out versions. Nothing
 * but the instance id (the per-marketplace token a shop already sends for licences) is used.
 */

/** 0–99, stable per item and instance; salted by the item so the same shops are not always first. */
export function rolloutBucket(marketplaceId: string, instanceId: string): number {
  return createHash('sha256').update(`${marketplaceId}\n${instanceId}`).digest().readUInt32BE(0) % 100;
}

export function offeredTo(v: q.VersionRow, marketplaceId: string, instanceId: string | undefined): boolean {
  if (v.status !== 'approved' || v.rollout_halted_at) return false;
  if (v.rollout_percent >= 100) return true;
  return instanceId !== undefined && rolloutBucket(marketplaceId, instanceId) < v.rollout_percent;
}

/** The versions this shop is offered, newest first (input newest first). */
export function offeredVersions(versions: q.VersionRow[], marketplaceId: string, instanceId: string | undefined) {
  return versions.filter((v) => offeredTo(v, marketplaceId, instanceId));
}

export interface RolloutInput {
  rollout_percent?: number;
  halted?: boolean;
}

/** The vendor (own namespace) or the operator sets a version's percentage, halts or resumes it. */
export async function setRollout(ctx: Ctx, itemId: string, versionId: string, input: RolloutInput): Promise<AdminItem> {
  // Ownership first, outside the transaction (it reads the vendor's namespaces): a foreign vendor writes nothing.
  const owner = await q.findItemById(ctx.db, itemId);
  if (owner) await assertOwnsNamespace(ctx, owner.vendor);
  return inTx(ctx, async (tctx) => {
    const item = await q.findItemById(tctx.tx, itemId);
    const version = item ? await q.findVersionById(tctx.tx, versionId) : undefined;
    if (!item || !version || version.item_id !== item.id)
      throw errors.notFound('marketplace_version_id_not_found', { id: versionId });
    if (input.rollout_percent === undefined && input.halted === undefined)
      throw errors.invalid('marketplace_rollout_change_missing');
    const now = tctx.clock.now();
    await q.updateVersionRow(tctx.tx, version.id, {
      ...(input.rollout_percent !== undefined ? { rollout_percent: input.rollout_percent } : {}),
      ...(input.halted !== undefined ? { rollout_halted_at: input.halted ? now : null } : {}),
    });
    const updated = await q.updateItemRow(tctx.tx, item.id, { updated_at: now });
    return adminItem(updated!, await q.listVersionRows(tctx.tx, [item.id]));
  });
}
