import { executor, inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as rq from './reason-queries.ts';
import type {
  CreateReturnReasonInput,
  ReturnReasonQueryInput,
  ReturnReasonView,
  UpdateReturnReasonInput,
} from './reason-schema.ts';

/** Return reasons: a catalog of why things come back, nested under a parent. */

const list = (v: string | string[] | undefined) => (v === undefined ? undefined : [v].flat());
export const reasonNotFound = (id: string) => errors.notFound('return_reason_not_found', { id });

const plain = (r: rq.ReasonRow) => ({ ...r, metadata: r.metadata ?? null });

/** Reasons with their parent and children, in three queries however many. */
export async function reasonViews(db: Executor, rows: rq.ReasonRow[]): Promise<ReturnReasonView[]> {
  const parentIds = [...new Set(rows.flatMap((r) => (r.parent_return_reason_id ? [r.parent_return_reason_id] : [])))];
  const parents = new Map((await rq.reasonsByIds(db, parentIds)).map((p) => [p.id, p]));
  const children = await rq.childrenOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const parent = r.parent_return_reason_id ? parents.get(r.parent_return_reason_id) : undefined;
    return {
      ...plain(r),
      parent_return_reason: parent ? plain(parent) : null,
      return_reason_children: children.filter((c) => c.parent_return_reason_id === r.id).map(plain),
    };
  });
}

export async function listReasons(ctx: Ctx, q: ReturnReasonQueryInput, page: Page) {
  const db = executor(ctx);
  const f = { id: list(q.id), value: list(q.value), parent: list(q.parent_return_reason_id), q: q.q };
  const rows = await rq.listReasonRows(db, f, page);
  return { return_reasons: await reasonViews(db, rows), count: await rq.countReasonRows(db, f) };
}

export async function getReason(ctx: Ctx, id: string): Promise<ReturnReasonView> {
  const db = executor(ctx);
  const [row] = await rq.reasonsByIds(db, [id]);
  if (!row) throw reasonNotFound(id);
  return (await reasonViews(db, [row]))[0];
}

async function checkParent(db: Executor, id: string, parentId: string | null | undefined): Promise<void> {
  if (!parentId) return;
  if (parentId === id) throw errors.invalid('return_reason_own_parent');
  const [parent] = await rq.reasonsByIds(db, [parentId]);
  if (!parent) throw reasonNotFound(parentId);
  // Walking up from the parent must never reach this reason: no cycles.
  let up = parent.parent_return_reason_id;
  for (let depth = 0; up && depth < 50; depth++) {
    if (up === id) throw errors.invalid('return_reason_cycle');
    up = (await rq.reasonsByIds(db, [up]))[0]?.parent_return_reason_id ?? null;
  }
}

async function checkValueFree(db: Executor, value: string | undefined, id: string): Promise<void> {
  if (value === undefined) return;
  const [taken] = await rq.listReasonRows(db, { value: [value] }, { limit: 1, offset: 0 });
  if (taken && taken.id !== id)
    throw errors.duplicate('invalid_request_error', { detail: `Return reason with value: ${value} already exists` });
}

export async function createReason(ctx: Ctx, input: CreateReturnReasonInput): Promise<ReturnReasonView> {
  const id = newId('rr');
  await inTx(ctx, async (tctx) => {
    await checkParent(tctx.tx, id, input.parent_return_reason_id);
    await checkValueFree(tctx.tx, input.value, id);
    const now = tctx.clock.now();
    await rq.insertReason(tctx.tx, {
      id,
      value: input.value,
      label: input.label,
      description: input.description ?? null,
      parent_return_reason_id: input.parent_return_reason_id ?? null,
      metadata: input.metadata ?? null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
  });
  return getReason(ctx, id);
}

export async function updateReason(ctx: Ctx, id: string, input: UpdateReturnReasonInput): Promise<ReturnReasonView> {
  await inTx(ctx, async (tctx) => {
    if (!(await rq.reasonsByIds(tctx.tx, [id])).length) throw reasonNotFound(id);
    await checkParent(tctx.tx, id, input.parent_return_reason_id);
    await checkValueFree(tctx.tx, input.value, id);
    await rq.updateReason(tctx.tx, id, { ...input, updated_at: tctx.clock.now() });
  });
  return getReason(ctx, id);
}

/** Soft delete; its children lose their parent, past returns keep the id they were given. */
export async function deleteReason(ctx: Ctx, id: string): Promise<void> {
  await inTx(ctx, async (tctx) => {
    if (!(await rq.reasonsByIds(tctx.tx, [id])).length) throw reasonNotFound(id);
    const now = tctx.clock.now();
    await rq.updateReason(tctx.tx, id, { deleted_at: now, updated_at: now });
    for (const child of await rq.childrenOf(tctx.tx, [id]))
      await rq.updateReason(tctx.tx, child.id, { parent_return_reason_id: null, updated_at: now });
  });
}
