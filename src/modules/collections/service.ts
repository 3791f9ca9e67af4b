import type { Static } from 'typebox';
import { inTx, type Ctx } from '../../platform/context.ts';
import { uniqueOr } from '../../platform/db/pg-errors.ts';
import { parseFields } from '../../platform/http/fields.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import type { StoreScope } from '../../platform/http/types.ts';
import { newId } from '../../platform/ids.ts';
import { batchCollectionProducts, detachCollection, refreshCollectionProducts } from '../products/link-service.ts';
import { handleFromTitle } from '../products/rules.ts';
import { productsByGroup, type ProductSummaryJson } from '../products/store-service.ts';
import {
  countCollections,
  findLiveCollection,
  insertCollection,
  isCollectionHandleTaken,
  listCollectionRows,
  updateCollectionRow,
  type CollectionFilters,
  type CollectionRow,
} from './queries.ts';
import type { CreateCollectionBody, UpdateCollectionBody } from './schema.ts';

type View = Omit<CollectionRow, 'deleted_at'> & { deleted_at: Date | null; products?: ProductSummaryJson[] };

const notFound = (id: string) => errors.notFound('collection_not_found', { id });
const handleTaken = (handle: string) => errors.invalid('collection_handle_taken', { handle });

/** Adds `products` when `fields` asks for them (store: only what the key's channels sell). */
async function withProducts(ctx: Ctx, rows: CollectionRow[], fields?: string, scope?: StoreScope): Promise<View[]> {
  if (!parseFields(fields).relations.has('products')) return rows;
  const byId = await productsByGroup(
    ctx,
    'collection',
    rows.map((r) => r.id),
    scope,
  );
  return rows.map((r) => ({ ...r, products: byId.get(r.id) ?? [] }));
}

export async function listCollections(
  ctx: Ctx,
  filters: CollectionFilters & { fields?: string },
  page: Page,
  scope?: StoreScope,
) {
  const [rows, count] = await Promise.all([
    listCollectionRows(ctx.db, filters, page),
    countCollections(ctx.db, filters),
  ]);
  return { collections: await withProducts(ctx, rows, filters.fields, scope), count, ...page };
}

export async function getCollection(ctx: Ctx, id: string, fields?: string, scope?: StoreScope): Promise<View> {
  const row = await findLiveCollection(ctx.db, id);
  if (!row) throw notFound(id);
  const [view] = await withProducts(ctx, [row], fields, scope);
  return view;
}

const guardHandle = <T>(handle: string | undefined, write: () => Promise<T>) =>
  uniqueOr(write, () => (handle ? handleTaken(handle) : undefined));

export async function createCollection(ctx: Ctx, input: Static<typeof CreateCollectionBody>): Promise<View> {
  const handle = input.handle ?? handleFromTitle(input.title);
  const now = ctx.clock.now();
  const row: CollectionRow = {
    id: newId('pcol'),
    title: input.title,
    handle,
    external_id: input.external_id ?? null,
    metadata: input.metadata ?? null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  return guardHandle(handle, async () => {
    if (await isCollectionHandleTaken(ctx.db, handle)) throw handleTaken(handle);
    await insertCollection(ctx.db, row);
    return row;
  });
}

export async function updateCollection(
  ctx: Ctx,
  id: string,
  input: Static<typeof UpdateCollectionBody>,
): Promise<View> {
  return guardHandle(input.handle, () =>
    inTx(ctx, async ({ tx, clock }) => {
      if (!(await findLiveCollection(tx, id, true))) throw notFound(id);
      if (input.handle && (await isCollectionHandleTaken(tx, input.handle, id))) throw handleTaken(input.handle);
      await updateCollectionRow(tx, id, { ...input, updated_at: clock.now() });
      await refreshCollectionProducts(tx, id);
      return (await findLiveCollection(tx, id))!;
    }),
  );
}

/** Soft delete; its products lose their collection (and get `product.updated`) in the same transaction. */
export async function deleteCollection(ctx: Ctx, id: string) {
  await inTx(ctx, async (tctx) => {
    if (!(await findLiveCollection(tctx.tx, id, true))) throw notFound(id);
    const now = tctx.clock.now();
    await updateCollectionRow(tctx.tx, id, { deleted_at: now, updated_at: now });
    await detachCollection(tctx, id);
  });
  return { id, object: 'collection' as const, deleted: true as const };
}

export async function batchProducts(ctx: Ctx, id: string, input: { add?: string[]; remove?: string[] }): Promise<View> {
  return inTx(ctx, async (tctx) => {
    const row = await findLiveCollection(tctx.tx, id, true);
    if (!row) throw notFound(id);
    await batchCollectionProducts(tctx, id, input);
    return row;
  });
}
