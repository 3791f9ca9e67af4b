import { createHash } from 'node:crypto';
import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import * as q from './queries.ts';

export const tokenHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The `/admin` guard's lookup of `Authorization: Bearer mvk_…`: a live token of an active vendor. */
export function findVendorToken(ctx: Ctx, token: string) {
  return q.findTokenActor(ctx.db, tokenHash(token));
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
  if (owned && !owned.includes(namespace))
    throw errors.forbidden(`@${namespace} is not one of this vendor's namespaces`);
}
