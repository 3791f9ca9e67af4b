import { and, eq, ilike, inArray, isNull, or } from 'drizzle-orm';
import type { Static } from 'typebox';
import { inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { countRows, findLiveRow, isLiveValueTaken, rowsPage } from '../../platform/db/live-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';
import { uniqueOr } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { detachLabel, labelChanged } from '../products/link-service.ts';
import type { CreateLabelBody, LabelQuery, UpdateLabelBody } from './schema.ts';
import { productTags, productTypes } from './tables.ts';

/**
 * Product types and tags: the same small record (`value`, metadata). A type or tag is part of
 * its products' JSON, so renaming or deleting one moves those products' `updated_at` and emits
 * `product.updated` for each, in the same transaction (products/link-service.ts).
 */
export interface LabelKind {
  kind: 'type' | 'tag';
  table: typeof productTypes | typeof productTags;
  prefix: string;
  /** "Product type", "Product tag". */
  noun: string;
}

export const TYPE: LabelKind = { kind: 'type', table: productTypes, prefix: 'ptyp', noun: 'Product type' };
export const TAG: LabelKind = { kind: 'tag', table: productTags, prefix: 'ptag', noun: 'Product tag' };

type Query = Static<typeof LabelQuery>;

export async function listLabels(ctx: Ctx, kind: LabelKind, q: Query, page: Page) {
  const t = kind.table;
  const where = and(
    isNull(t.deleted_at),
    q.q ? or(ilike(t.value, containsPattern(q.q))) : undefined,
    q.id ? inArray(t.id, q.id) : undefined,
    q.value ? inArray(t.value, q.value) : undefined,
  );
  const [rows, count] = await Promise.all([rowsPage(ctx.db, t, where, page), countRows(ctx.db, t, where)]);
  return { rows, count };
}

const notFound = (kind: LabelKind, id: string) => errors.notFound('product_label_not_found', { noun: kind.noun, id });
const taken = (kind: LabelKind, value: string) => errors.invalid('product_label_taken', { noun: kind.noun, value });

const find = (db: Executor, kind: LabelKind, id: string) => findLiveRow(db, kind.table, id);

export async function getLabel(ctx: Ctx, kind: LabelKind, id: string) {
  const row = await find(ctx.db, kind, id);
  if (!row) throw notFound(kind, id);
  return row;
}

const guardValue = <T>(kind: LabelKind, value: string | undefined, write: () => Promise<T>) =>
  uniqueOr(write, () => (value ? taken(kind, value) : undefined));

export async function createLabel(ctx: Ctx, kind: LabelKind, input: Static<typeof CreateLabelBody>) {
  const now = ctx.clock.now();
  const row = {
    id: newId(kind.prefix),
    value: input.value,
    metadata: input.metadata ?? null,
    created_at: now,
    updated_at: now,
  };
  return guardValue(kind, input.value, async () => {
    const t = kind.table;
    if (await isLiveValueTaken(ctx.db, t, t.value, input.value)) throw taken(kind, input.value);
    await ctx.db.insert(t).values(row);
    return { ...row, deleted_at: null };
  });
}

export async function updateLabel(ctx: Ctx, kind: LabelKind, id: string, input: Static<typeof UpdateLabelBody>) {
  return guardValue(kind, input.value, () =>
    inTx(ctx, async (tctx) => {
      const t = kind.table;
      if (!(await find(tctx.tx, kind, id))) throw notFound(kind, id);
      if (input.value && (await isLiveValueTaken(tctx.tx, t, t.value, input.value, id))) throw taken(kind, input.value);
      await tctx.tx
        .update(t)
        .set({ ...input, updated_at: tctx.clock.now() })
        .where(eq(t.id, id));
      await labelChanged(tctx, kind.kind, id);
      return (await find(tctx.tx, kind, id))!;
    }),
  );
}

/** Soft delete; products lose the type or tag. */
export async function deleteLabel(ctx: Ctx, kind: LabelKind, id: string) {
  await inTx(ctx, async (tctx) => {
    const t = kind.table;
    if (!(await find(tctx.tx, kind, id))) throw notFound(kind, id);
    const now = tctx.clock.now();
    await tctx.tx.update(t).set({ deleted_at: now, updated_at: now }).where(eq(t.id, id));
    await detachLabel(tctx, kind.kind, id);
  });
}
