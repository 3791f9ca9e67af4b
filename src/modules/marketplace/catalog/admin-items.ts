import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { pageOf } from '../../../platform/http/pagination.ts';
import { adminItem, type AdminItem } from './item-json.ts';
import * as fields from './item-fields.ts';
import * as q from './queries.ts';
import { actingNamespaces, assertOwnsNamespace } from '../vendors/lookup.ts';

const notFound = (id: string) => errors.notFound('marketplace_item_id_not_found', { id });

async function withVersions(ctx: Ctx, items: q.ItemRow[]): Promise<AdminItem[]> {
  const versions = await q.listVersionRows(
    ctx.db,
    items.map((i) => i.id),
  );
  return items.map((i) =>
    adminItem(
      i,
      versions.filter((v) => v.item_id === i.id),
    ),
  );
}

export async function listAdminItems(ctx: Ctx, query: { limit?: number; offset?: number; q?: string; type?: string }) {
  const page = pageOf(query);
  const vendors = (await actingNamespaces(ctx)) ?? undefined;
  const filters = { publishedOnly: false, search: query.q, type: query.type, vendors };
  const [rows, count] = await Promise.all([q.listItemRows(ctx.db, filters, page), q.countItems(ctx.db, filters)]);
  return { items: await withVersions(ctx, rows), count, ...page };
}

/** The item, once the actor may act on it (the operator, or the vendor owning its namespace: else 403). */
async function ownedItem(ctx: Ctx, id: string): Promise<q.ItemRow> {
  const item = await q.findItemById(ctx.db, id);
  if (!item) throw notFound(id);
  await assertOwnsNamespace(ctx, item.vendor);
  return item;
}

export async function getAdminItem(ctx: Ctx, id: string): Promise<AdminItem> {
  return (await withVersions(ctx, [await ownedItem(ctx, id)]))[0];
}

export interface ItemChanges {
  price_eur?: number;
  billing?: string;
  changelog_url?: string | null;
  description?: string;
}

export async function updateAdminItem(ctx: Ctx, id: string, body: ItemChanges): Promise<AdminItem> {
  await ownedItem(ctx, id);
  const set = {
    updated_at: ctx.clock.now(),
    ...(body.price_eur !== undefined ? { price_cents: fields.priceCents(body.price_eur) } : {}),
    ...(body.billing !== undefined ? { billing: fields.billing(body.billing) } : {}),
    ...(body.changelog_url !== undefined ? { changelog_url: fields.changelogUrl(body.changelog_url) } : {}),
    ...(body.description !== undefined ? { description: fields.description(body.description) } : {}),
  };
  const item = await q.updateItemRow(ctx.db, id, set);
  if (!item) throw notFound(id);
  return (await withVersions(ctx, [item]))[0];
}

/** Takes the item out of the feed and stops its downloads; the versions stay (publishing again restores it). */
export async function unpublishAdminItem(ctx: Ctx, id: string): Promise<AdminItem> {
  const existing = await ownedItem(ctx, id);
  const now = ctx.clock.now();
  const item = existing.published
    ? await q.updateItemRow(ctx.db, id, { published: false, unpublished_at: now, updated_at: now })
    : existing;
  return (await withVersions(ctx, [item!]))[0];
}
