import { executor, inTx, type Ctx } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import type {
  CreateRefundReasonInput,
  RefundReasonQueryInput,
  RefundReasonView,
  UpdateRefundReasonInput,
} from './schema.ts';

/** Refund reasons: a catalog the admin picks from when refunding (`refund_reason_id` on a refund). */

const notFound = (id: string) => errors.notFound('refund_reason_not_found', { id });
const codeTaken = (code: string) => errors.invalid('refund_reason_code_taken', { code });
const view = (r: q.RefundReasonRow): RefundReasonView => ({ ...r, metadata: r.metadata ?? null });

export async function listRefundReasons(ctx: Ctx, query: RefundReasonQueryInput, page: Page) {
  const db = executor(ctx);
  const f = { id: query.id, code: query.code, q: query.q };
  const rows = page.limit === 0 ? [] : await q.listRefundReasonRows(db, f, page);
  return { refund_reasons: rows.map(view), count: await q.countRefundReasonRows(db, f) };
}

export async function getRefundReason(ctx: Ctx, id: string): Promise<RefundReasonView> {
  const row = await q.findRefundReason(executor(ctx), id);
  if (!row) throw notFound(id);
  return view(row);
}

/** A code another live reason holds is a 400, also when a concurrent create took it after the check. */
function codeRace(err: unknown, code: string | undefined): unknown {
  return code !== undefined && isUniqueViolation(err) ? codeTaken(code) : err;
}

export async function createRefundReason(ctx: Ctx, input: CreateRefundReasonInput): Promise<RefundReasonView> {
  try {
    return await inTx(ctx, async (tctx) => {
      if (await q.isCodeTaken(tctx.tx, input.code)) throw codeTaken(input.code);
      const now = tctx.clock.now();
      const row = {
        id: newId('refr'),
        label: input.label,
        code: input.code,
        description: input.description ?? null,
        metadata: input.metadata ?? null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      };
      await q.insertRefundReason(tctx.tx, row);
      return view(row);
    });
  } catch (err) {
    throw codeRace(err, input.code);
  }
}

export async function updateRefundReason(
  ctx: Ctx,
  id: string,
  input: UpdateRefundReasonInput,
): Promise<RefundReasonView> {
  try {
    return await inTx(ctx, async (tctx) => {
      if (!(await q.findRefundReason(tctx.tx, id))) throw notFound(id);
      if (input.code !== undefined && (await q.isCodeTaken(tctx.tx, input.code, id))) throw codeTaken(input.code);
      const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      const row = await q.updateRefundReasonRow(tctx.tx, id, { ...patch, updated_at: tctx.clock.now() });
      return view(row!);
    });
  } catch (err) {
    throw codeRace(err, input.code);
  }
}

/** Soft delete: refunds that named it keep the id; its code is free again. */
export async function deleteRefundReason(ctx: Ctx, id: string): Promise<void> {
  await inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    if (!(await q.updateRefundReasonRow(tctx.tx, id, { deleted_at: now, updated_at: now }))) throw notFound(id);
  });
}
