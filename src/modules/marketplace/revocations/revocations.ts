import { inTx, type Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { newId } from '../../../platform/ids.ts';
import * as catalog from '../catalog/queries.ts';
import type { RevocationSeverity } from './tables.ts';
import { assertOwnsNamespace } from '../vendors/lookup.ts';
import * as q from './queries.ts';

export interface RevokeInput {
  severity: RevocationSeverity;
  reason: string;
}

const byWhom = (ctx: Ctx) => (ctx.actor?.type === 'vendor' && ctx.actor.vendor ? ctx.actor.vendor.id : 'operator');

export function revocationJson(r: q.RevocationRow) {
  return {
    sequence: r.sequence,
    kind: r.kind,
    marketplace_id: r.marketplace_id,
    version: r.version,
    key_id: r.key_id,
    severity: r.severity,
    reason: r.reason,
    revoked_at: r.created_at.toISOString(),
  };
}
export type RevocationJson = ReturnType<typeof revocationJson>;

/**
 * Before the body is read: a foreign vendor learns nothing from validation errors about an item
 * that is not theirs (403 first). An unknown item is left to the handler's 404.
 */
export async function assertMayRevoke(ctx: Ctx, itemId: string): Promise<void> {
  const item = await catalog.findItemById(ctx.db, itemId);
  if (item) await assertOwnsNamespace(ctx, item.vendor);
}

/**
 * Revokes one version, or the whole item when `versionId` is absent: the versions leave the feed
 * and downloads, and an entry joins the signed list every shop polls, where it stops (critical)
 * or flags (warning) the installed copies. The operator, or the vendor owning the namespace.
 */
export async function revokeItem(
  ctx: Ctx,
  itemId: string,
  versionId: string | undefined,
  input: RevokeInput,
): Promise<RevocationJson> {
  const item = await catalog.findItemById(ctx.db, itemId);
  if (!item) throw errors.notFound('marketplace_item_id_not_found', { id: itemId });
  await assertOwnsNamespace(ctx, item.vendor);
  return inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    let version: string | null = null;
    if (versionId) {
      const row = await catalog.findVersionById(tctx.tx, versionId);
      if (!row || row.item_id !== item.id) throw errors.notFound('marketplace_version_id_not_found', { id: versionId });
      if (row.status === 'revoked')
        throw errors.conflict('marketplace_version_already_revoked', { version: row.version });
      version = row.version;
      await q.markVersionsRevoked(tctx.tx, item.id, row.id);
    } else {
      await q.markVersionsRevoked(tctx.tx, item.id);
      await q.unpublishItem(tctx.tx, item.id, now);
    }
    const entry = await q.appendRevocation(tctx.tx, {
      id: newId('mrev'),
      kind: version ? 'version' : 'item',
      marketplace_id: item.marketplace_id,
      version,
      severity: input.severity,
      reason: input.reason,
      revoked_by: byWhom(tctx),
      created_at: now,
    });
    return revocationJson(entry);
  });
}

/** The operator revokes a signing key: it signs nothing more, and shops refuse what it signed from now on. */
export async function revokeSigningKey(ctx: Ctx, keyId: string, input: RevokeInput): Promise<RevocationJson> {
  return inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const key = await q.revokeKeyRow(tctx.tx, keyId, now);
    if (!key) throw errors.notFound('marketplace_signing_key_not_found', { key_id: keyId });
    const entry = await q.appendRevocation(tctx.tx, {
      id: newId('mrev'),
      kind: 'key',
      key_id: keyId,
      severity: input.severity,
      reason: input.reason,
      revoked_by: 'operator',
      created_at: now,
    });
    return revocationJson(entry);
  });
}
