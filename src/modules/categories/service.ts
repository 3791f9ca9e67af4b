import type { Static } from 'typebox';
import { inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { uniqueOr } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import { parseFields } from '../../platform/http/fields.ts';
import type { Page } from '../../platform/http/pagination.ts';
import type { StoreScope } from '../../platform/http/types.ts';
import { newId } from '../../platform/ids.ts';
import { batchCategoryProducts, detachCategory, refreshProductsNearCategories } from '../products/link-service.ts';
import { handleFromTitle } from '../products/rules.ts';
import { productsByGroup } from '../products/store-service.ts';
import {
  findLiveCategory,
  hasLiveChildren,
  isCategoryHandleTaken,
  listLiveCategories,
  type CategoryRow,
} from './queries.ts';
import { insertCategory, lockSiblings, shiftRanksDown, shiftRanksUp, updateCategoryRow } from './queries.ts';
import type { AdminCategoryQuery, CategoryGetQuery, CreateCategoryBody, UpdateCategoryBody } from './schema.ts';
import { CategoryTree, type TopCategoryView } from './tree.ts';

type ListQuery = Static<typeof AdminCategoryQuery>;
type GetQuery = Static<typeof CategoryGetQuery>;

export const categoryNotFound = (id: string) => errors.notFound('category_not_found', { id });
const handleTaken = (handle: string) => errors.invalid('category_handle_taken', { handle });

/** The store's view (`scope` given: active, public categories, products of the key's channels) or the admin's. */
async function loadTree(ctx: Ctx, q: GetQuery, scope?: StoreScope) {
  const fields = parseFields(q.fields);
  const tree = new CategoryTree(await listLiveCategories(ctx.db, !!scope), {
    admin: !scope,
    descendants: !!q.include_descendants_tree,
    ancestors: !!q.include_ancestors_tree || fields.paths.has('parent_category.parent_category'),
  });
  return { tree, withProducts: fields.relations.has('products') };
}

async function render(ctx: Ctx, tree: CategoryTree, rows: CategoryRow[], withProducts: boolean, scope?: StoreScope) {
  const views: TopCategoryView[] = rows.map((r) => tree.view(r));
  if (!withProducts) return views;
  const byId = await productsByGroup(
    ctx,
    'category',
    rows.map((r) => r.id),
    scope,
  );
  return views.map((v) => ({ ...v, products: byId.get(v.id) ?? [] }));
}

const contains = (text: string, q: string) => text.toLowerCase().includes(q.toLowerCase());

function matches(r: CategoryRow, q: ListQuery): boolean {
  const parents = q.parent_category_id;
  return (
    (!q.q || contains(r.name, q.q) || contains(r.handle, q.q) || contains(r.description, q.q)) &&
    (!q.id || q.id.includes(r.id)) &&
    (!q.handle || q.handle.includes(r.handle)) &&
    (!q.name || q.name.includes(r.name)) &&
    (!parents || parents.includes(r.parent_category_id ?? 'null')) &&
    (q.is_active === undefined || r.is_active === q.is_active) &&
    (q.is_internal === undefined || r.is_internal === q.is_internal)
  );
}

export async function listCategories(ctx: Ctx, q: ListQuery, page: Page, scope?: StoreScope) {
  const { tree, withProducts } = await loadTree(ctx, q, scope);
  const found = tree.rows.filter((r) => matches(r, q));
  const rows = found.slice(page.offset, page.offset + page.limit);
  return { product_categories: await render(ctx, tree, rows, withProducts, scope), count: found.length, ...page };
}

export async function getCategory(ctx: Ctx, id: string, q: GetQuery, scope?: StoreScope) {
  const { tree, withProducts } = await loadTree(ctx, q, scope);
  const row = tree.get(id);
  if (!row) throw categoryNotFound(id);
  const [view] = await render(ctx, tree, [row], withProducts, scope);
  return view;
}

const guardHandle = <T>(handle: string | undefined, write: () => Promise<T>) =>
  uniqueOr(write, () => (handle ? handleTaken(handle) : undefined));

type Create = Static<typeof CreateCategoryBody>;

/** Places the category among its new siblings: at `rank` (clamped to the end), or last. */
async function placeAt(tx: Executor, parent: string | null, rank: number | undefined, self?: string) {
  const count = await lockSiblings(tx, parent, self);
  const at = rank === undefined ? count : Math.min(rank, count);
  await shiftRanksUp(tx, parent, at, self);
  return at;
}

export async function createCategory(ctx: Ctx, input: Create) {
  const handle = input.handle ?? handleFromTitle(input.name);
  const id = await guardHandle(handle, () =>
    inTx(ctx, async ({ tx, clock }) => {
      const parent = input.parent_category_id ?? null;
      if (parent && !(await findLiveCategory(tx, parent, true))) throw categoryNotFound(parent);
      if (await isCategoryHandleTaken(tx, handle)) throw handleTaken(handle);
      const now = clock.now();
      const row: CategoryRow = {
        id: newId('pcat'),
        name: input.name,
        description: input.description ?? '',
        handle,
        is_active: input.is_active ?? false,
        is_internal: input.is_internal ?? false,
        rank: await placeAt(tx, parent, input.rank),
        parent_category_id: parent,
        external_id: input.external_id ?? null,
        metadata: input.metadata ?? null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      };
      await insertCategory(tx, row);
      await refreshProductsNearCategories(tx, [parent]);
      return row.id;
    }),
  );
  return getCategory(ctx, id, {});
}

/** Moving under another parent or to another rank keeps every sibling list dense (0, 1, 2…). */
export async function updateCategory(ctx: Ctx, id: string, input: Static<typeof UpdateCategoryBody>) {
  await guardHandle(input.handle, () =>
    inTx(ctx, async ({ tx, clock }) => {
      const current = await findLiveCategory(tx, id, true);
      if (!current) throw categoryNotFound(id);
      if (input.handle && (await isCategoryHandleTaken(tx, input.handle, id))) throw handleTaken(input.handle);
      const parent = input.parent_category_id === undefined ? current.parent_category_id : input.parent_category_id;
      if (parent && parent !== current.parent_category_id) {
        if (!(await findLiveCategory(tx, parent, true))) throw categoryNotFound(parent);
        const tree = new CategoryTree(await listLiveCategories(tx, false), {
          admin: true,
          descendants: false,
          ancestors: false,
        });
        if (tree.isSelfOrDescendant(id, parent)) throw errors.invalid('category_cycle');
      }
      const { rank, parent_category_id: _p, ...rest } = input;
      const patch: Partial<CategoryRow> = { ...rest, updated_at: clock.now() };
      if (parent !== current.parent_category_id || (rank !== undefined && rank !== current.rank)) {
        await shiftRanksDown(tx, current.parent_category_id, current.rank);
        patch.parent_category_id = parent;
        patch.rank = await placeAt(tx, parent, rank, id);
      }
      await updateCategoryRow(tx, id, patch);
      await refreshProductsNearCategories(tx, [id, current.parent_category_id, parent]);
    }),
  );
  return getCategory(ctx, id, {});
}

/** Soft delete of a leaf (Medusa refuses a category with children); its products are unlinked. */
export async function deleteCategory(ctx: Ctx, id: string) {
  await inTx(ctx, async (tctx) => {
    const current = await findLiveCategory(tctx.tx, id, true);
    if (!current) throw categoryNotFound(id);
    if (await hasLiveChildren(tctx.tx, id)) {
      throw errors.notAllowed('category_has_children', { id });
    }
    const now = tctx.clock.now();
    await updateCategoryRow(tctx.tx, id, { deleted_at: now, updated_at: now });
    await shiftRanksDown(tctx.tx, current.parent_category_id, current.rank);
    await detachCategory(tctx, id);
    await refreshProductsNearCategories(tctx.tx, [current.parent_category_id]);
  });
  return { id, object: 'product_category' as const, deleted: true as const };
}

export async function batchProducts(ctx: Ctx, id: string, input: { add?: string[]; remove?: string[] }) {
  await inTx(ctx, async (tctx) => {
    if (!(await findLiveCategory(tctx.tx, id, true))) throw categoryNotFound(id);
    await batchCategoryProducts(tctx, id, input);
  });
  return getCategory(ctx, id, {});
}
