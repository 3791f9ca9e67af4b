import { createHash } from 'node:crypto';
import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import * as q from './queries.ts';

export const tokenHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** `last_used_at` is written at most this often per token and process: a CI run makes many calls. */
const TOUCH_EVERY_MS = 5 * 60_000;
const touched = new Map<string, number>();

/** The `/admin` guard's lookup of `Authorization: Bearer mvk_…`: a live token of an active vendor. */
export async function findVendorToken(ctx: Ctx, token: string) {
  const found = await q.findTokenActor(ctx.db, tokenHash(token));
  const now = ctx.clock.now();
  if (found && now.getTime() - (touched.get(found.token_id) ?? 0) >= TOUCH_EVERY_MS) {
    touched.set(found.token_id, now.getTime());
    await q.touchToken(ctx.db, found.token_id, now);
  }
  return found;
}

/** The namespaces the acting vendor owns, or null for the operator (who may act on every one). */
export async function actingNamespaces(ctx: Ctx): Promise<string[] | null> {
  const vendor = ctx.actor?.type === 'vendor' ? ctx.actor.vendor : undefined;
  if (!vendor) return null;
  return (await q.namespacesOf(ctx.db, [vendor.id])).map((n) => n.namespace);
}

/** 403 unless the actor is the operator or the vendor owning `@namespace`; checked before anything is written. */
export async function assertOwnsNamespace(ctx: Ctx, namespace: string): Promise<void> {
  const owned = await actingNamespaces(ctx);
  if (owned && !owned.includes(namespace)) throw errors.forbidden('marketplace_namespace_not_owned', { namespace });
}

/**
 * Who reviews a new version: the operator's own uploads (they are the reviewer), a trusted vendor's
 * (no human step), anyone else's (the operator). catalog/publish.ts turns it and the automatic
 * checks into the version's first status.
 */
export async function reviewerOfUpload(ctx: Ctx): Promise<'operator' | 'trusted' | 'vendor'> {
  const vendor = ctx.actor?.type === 'vendor' ? ctx.actor.vendor : undefined;
  if (!vendor) return 'operator';
  return (await q.findVendor(ctx.db, vendor.id))?.trusted ? 'trusted' : 'vendor';
}

/** The acting vendor's id for its own routes (`/admin/marketplace/vendor/…`); the operator has none. */
export function selfVendorId(ctx: Ctx, instead: string): string {
  const id = ctx.actor?.type === 'vendor' ? ctx.actor.vendor?.id : undefined;
  if (!id) throw errors.invalid('marketplace_vendor_only', { instead });
  return id;
}
