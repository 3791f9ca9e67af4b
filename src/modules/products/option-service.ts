import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { pageOf, type Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { productsChanged } from './link-service.ts';
import {
  findOptionJson,
  listOptionsJson,
  optionValueId,
  type OptionFilters,
  type OptionJson,
} from './option-queries.ts';
import { findAdminProduct } from './queries.ts';
import { assertOptionsWellFormed } from './rules.ts';
import type { LinkOptionsInput, OptionCreateInput, OptionUpdateInput } from './option-schema.ts';
import { productNotFound, type ProductJson } from './service.ts';
import {
  deleteOptions,
  dropOptionFromVariants,
  findLiveOption,
  insertOptions,
  listOptions,
  lockLiveProduct,
  renameOptionInVariants,
  renameValueInVariants,
  updateOptionRow,
  variantsUsingValue,
  type OptionRow,
} from './write-queries.ts';

/**
 * Product options through Medusa's option routes (`/admin/product-options`, and
 * `/admin/products/{id}/options[/batch]`). Here an option belongs to one product (Medusa 2.21 can
 * share one among products; `is_exclusive` is always false and a `product_id` is needed to create
 * one). Variants keep their choices by option title and value, so a renamed option or value is
 * renamed in them too, in the same transaction; a value a variant uses cannot be removed. Every
 * write ends as the product writes do (`productsChanged`: store document, `product.updated`).
 */

export const optionNotFound = (id: string) => errors.notFound('product_option_not_found', { id });

export function listAllOptions(ctx: Ctx, f: OptionFilters, query: { limit?: number; offset?: number }) {
  return listOptionsJson(ctx.db, f, pageOf(query, 50));
}

export async function getOption(ctx: Ctx, id: string): Promise<OptionJson> {
  const option = await findOptionJson(ctx.db, id);
  if (!option) throw optionNotFound(id);
  return option;
}

export async function listOptionValues(
  ctx: Ctx,
  id: string,
  f: { id?: string[]; value?: string[]; q?: string },
  page: Page,
) {
  const q = f.q?.toLowerCase();
  const values = (await getOption(ctx, id)).values.filter(
    (v) =>
      (!f.id || f.id.includes(v.id)) &&
      (!f.value || f.value.includes(v.value)) &&
      (!q || v.value.toLowerCase().includes(q)),
  );
  return { product_option_values: values.slice(page.offset, page.offset + page.limit), count: values.length };
}

export async function getOptionValue(ctx: Ctx, optionId: string, valueId: string) {
  const value = (await getOption(ctx, optionId)).values.find((v) => v.id === valueId);
  if (!value) throw errors.notFound('option_value_not_found', { id: valueId, option: optionId });
  return value;
}

/** `ranks` (`{ <value>: <rank> }`) reorders the values; values it does not name keep their place after the ranked. */
function ranked(values: string[], ranks: Record<string, number> | undefined): string[] {
  if (!ranks) return values;
  const at = (v: string, i: number) => ranks[v] ?? values.length + i;
  return values
    .map((v, i) => ({ v, r: at(v, i) }))
    .sort((a, b) => a.r - b.r)
    .map((x) => x.v);
}

async function lockOption(tctx: TxCtx, id: string): Promise<OptionRow> {
  const option = await findLiveOption(tctx.tx, id);
  if (!option || !(await lockLiveProduct(tctx.tx, option.product_id))) throw optionNotFound(id);
  return option;
}

async function assertValuesUnused(tctx: TxCtx, option: OptionRow, removed: string[]): Promise<void> {
  const users = await variantsUsingValue(tctx.tx, option.product_id, option.title, removed);
  if (users.length) {
    throw errors.notAllowed('option_value_in_use', {
      value: removed.join('", "'),
      option: option.title,
      ids: users.join(', '),
    });
  }
}

/** The new state of one option: title and values checked against the product's other options. */
async function writeOption(
  tctx: TxCtx,
  option: OptionRow,
  next: { title: string; values: string[] },
  renamedFrom?: string,
): Promise<void> {
  const siblings = (await listOptions(tctx.tx, option.product_id)).filter((o) => o.id !== option.id);
  assertOptionsWellFormed([...siblings, next]);
  await assertValuesUnused(
    tctx,
    option,
    option.values.filter((v) => !next.values.includes(v) && v !== renamedFrom),
  );
  await updateOptionRow(tctx.tx, option.id, next);
  if (next.title !== option.title) {
    await renameOptionInVariants(tctx.tx, option.product_id, option.title, next.title);
  }
}

async function addOptions(tctx: TxCtx, productId: string, added: { title: string; values: string[] }[]) {
  const existing = await listOptions(tctx.tx, productId);
  assertOptionsWellFormed([...existing, ...added]);
  const rows = added.map((o, i) => ({
    id: newId('opt'),
    product_id: productId,
    title: o.title,
    values: o.values,
    rank: existing.length + i,
  }));
  await insertOptions(tctx.tx, rows);
  return rows.map((r) => r.id);
}

async function removeOption(tctx: TxCtx, option: OptionRow): Promise<void> {
  await dropOptionFromVariants(tctx.tx, option.product_id, option.title);
  await deleteOptions(tctx.tx, [option.id]);
}

/** `POST /admin/product-options`: a new option of the product named by `product_id`, after its others. */
export function createOption(ctx: Ctx, input: OptionCreateInput): Promise<OptionJson> {
  const productId = input.product_id;
  if (!productId) throw errors.invalid('product_option_product_required');
  return inTx(ctx, async (tctx) => {
    if (!(await lockLiveProduct(tctx.tx, productId))) throw productNotFound(productId);
    const [id] = await addOptions(tctx, productId, [{ title: input.title, values: ranked(input.values, input.ranks) }]);
    await productsChanged(tctx, [productId]);
    return (await findOptionJson(tctx.tx, id))!;
  });
}

export function updateOption(ctx: Ctx, id: string, input: OptionUpdateInput): Promise<OptionJson> {
  return inTx(ctx, async (tctx) => {
    const option = await lockOption(tctx, id);
    const values = ranked(input.values ?? option.values, input.ranks);
    await writeOption(tctx, option, { title: input.title ?? option.title, values });
    await productsChanged(tctx, [option.product_id]);
    return (await findOptionJson(tctx.tx, id))!;
  });
}

/** Removes the option from its product; its variants lose that choice. */
export function deleteOption(ctx: Ctx, id: string) {
  return inTx(ctx, async (tctx) => {
    const option = await lockOption(tctx, id);
    await removeOption(tctx, option);
    await productsChanged(tctx, [option.product_id]);
    const parent = (await findAdminProduct<ProductJson>(tctx.tx, option.product_id))!;
    return { id, object: 'product_option' as const, deleted: true as const, parent };
  });
}

function optionValueText(option: OptionRow, valueId: string): string {
  const value = option.values.find((v) => optionValueId(option.id, v) === valueId);
  if (value === undefined) throw errors.notFound('option_value_not_found', { id: valueId, option: option.id });
  return value;
}

/**
 * Renames a value (its variants follow). A value's id is derived from its text, so the renamed
 * value answers with a new id. `metadata` is accepted and not kept (values have no columns here).
 */
export function updateOptionValue(ctx: Ctx, optionId: string, valueId: string, input: { value?: string }) {
  return inTx(ctx, async (tctx) => {
    const option = await lockOption(tctx, optionId);
    const from = optionValueText(option, valueId);
    const to = input.value ?? from;
    if (to !== from) {
      const values = option.values.map((v) => (v === from ? to : v));
      await writeOption(tctx, option, { title: option.title, values }, from);
      await renameValueInVariants(tctx.tx, option.product_id, option.title, from, to);
      await productsChanged(tctx, [option.product_id]);
    }
    const after = (await findOptionJson(tctx.tx, optionId))!;
    return after.values.find((v) => v.value === to)!;
  });
}

/** Removes a value no variant uses (else 400). */
export function deleteOptionValue(ctx: Ctx, optionId: string, valueId: string) {
  return inTx(ctx, async (tctx) => {
    const option = await lockOption(tctx, optionId);
    const value = optionValueText(option, valueId);
    await writeOption(tctx, option, { title: option.title, values: option.values.filter((v) => v !== value) });
    await productsChanged(tctx, [option.product_id]);
    const parent = (await findOptionJson(tctx.tx, optionId))!;
    return { id: valueId, object: 'product_option_value' as const, deleted: true as const, parent };
  });
}

/** `GET /admin/products/{id}/options`. */
export async function listProductOptions(
  ctx: Ctx,
  productId: string,
  f: OptionFilters,
  query: { limit?: number; offset?: number },
) {
  return listOptionsJson(ctx.db, { ...f, product_id: [productId] }, pageOf(query, 50));
}

/**
 * `POST /admin/products/{id}/options/batch` (Medusa's linkOptions): `remove` takes options off the
 * product (its variants lose that choice), `add` gives it new ones (`{ title, values }`) or copies
 * of another product's option (its id, or `{ id, value_ids }` for some of its values), and
 * `update` adds values to or removes unused values from the product's own options.
 */
export function linkOptions(ctx: Ctx, productId: string, input: LinkOptionsInput): Promise<ProductJson> {
  return inTx(ctx, async (tctx) => {
    if (!(await lockLiveProduct(tctx.tx, productId))) throw productNotFound(productId);
    const own = new Map((await listOptions(tctx.tx, productId)).map((o) => [o.id, o]));
    const ownOption = (id: string) => {
      const option = own.get(id);
      if (!option) throw optionNotFound(id);
      return option;
    };
    for (const id of new Set(input.remove ?? [])) await removeOption(tctx, ownOption(id));
    for (const change of input.update ?? []) {
      const option = ownOption(change.product_option_id);
      const removed = new Set((change.remove ?? []).map((valueId) => optionValueText(option, valueId)));
      const added = (change.add ?? [])
        .map((a) => (typeof a === 'string' ? a : a.value))
        .filter((v) => !option.values.includes(v));
      await writeOption(tctx, option, {
        title: option.title,
        values: [...option.values.filter((v) => !removed.has(v)), ...new Set(added)],
      });
    }
    const added: { title: string; values: string[] }[] = [];
    for (const item of input.add ?? []) {
      if (typeof item !== 'string' && 'title' in item) {
        added.push({ title: item.title, values: ranked(item.values, item.ranks) });
        continue;
      }
      const id = typeof item === 'string' ? item : item.id;
      if (own.has(id)) continue; // already the product's
      const source = await findLiveOption(tctx.tx, id);
      if (!source) throw optionNotFound(id);
      const wanted = typeof item === 'string' ? undefined : new Set(item.value_ids);
      const values = wanted ? source.values.filter((v) => wanted.has(optionValueId(source.id, v))) : source.values;
      added.push({ title: source.title, values });
    }
    await addOptions(tctx, productId, added);
    await productsChanged(tctx, [productId]);
    return (await findAdminProduct<ProductJson>(tctx.tx, productId))!;
  });
}
