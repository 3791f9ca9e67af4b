import { executor, inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/pg-errors.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { campaignView } from './campaigns.ts';
import * as q from './queries.ts';
import type { CreatePromotionInput, PromotionView, RuleInputT, RuleUpdateT, UpdatePromotionInput } from './schema.ts';
import type { ApplicationMethodJson, RuleJson } from './shapes.ts';
import { amountIn, amountOut } from './units.ts';

/** Promotions as Medusa's admin manages them; each change emits its event in the same transaction. */

const notFound = (id: string) => errors.notFound('promotion_not_found', { id });
const taken = (code: string) =>
  errors.duplicate('invalid_request_error', { detail: `Promotion with code: ${code}, already exists.` });

export const toRules = (rules: RuleInputT[] | undefined): RuleJson[] =>
  (rules ?? []).map((r) => ({
    id: newId('prorul'),
    attribute: r.attribute,
    operator: r.operator,
    description: r.description ?? null,
    values: (Array.isArray(r.values) ? r.values : [r.values]).map((value) => ({ id: newId('prorulval'), value })),
  }));

/** Medusa's checks of an application method (its messages), on the method as it will be stored. */
function checkMethod(type: 'standard' | 'buyget', m: ApplicationMethodJson): void {
  if (m.type === 'percentage' && (m.value <= 0 || m.value > 100))
    throw errors.invalid('promotion_percentage_out_of_range');
  if (type === 'buyget') {
    if (!m.apply_to_quantity) throw errors.invalid('promotion_buyget_apply_quantity_required');
    if (!m.buy_rules_min_quantity) throw errors.invalid('promotion_buyget_min_quantity_required');
    if (!m.buy_rules.length) throw errors.invalid('promotion_buyget_buy_rules_required');
    if (!m.target_rules.length) throw errors.invalid('promotion_buyget_target_rules_required');
  }
  if (m.target_type !== 'order' && !m.allocation)
    throw errors.invalid('promotion_allocation_required', { target_type: m.target_type });
  if (m.allocation === 'across' && m.max_quantity) throw errors.invalid('promotion_max_quantity_not_allowed');
  if (m.allocation === 'each' && m.target_type === 'items' && type === 'standard' && !m.max_quantity)
    throw errors.invalid('promotion_max_quantity_required');
}

function methodOf(
  ctx: Ctx,
  input: CreatePromotionInput['application_method'],
  id = newId('proappmet'),
): ApplicationMethodJson {
  const currency = input.currency_code?.toLowerCase() ?? null;
  return {
    id,
    type: input.type,
    target_type: input.target_type,
    allocation: input.target_type === 'order' ? 'across' : (input.allocation ?? null),
    value: input.type === 'fixed' ? amountIn(ctx, input.value, currency, 'application_method.value') : input.value,
    currency_code: currency,
    max_quantity: input.max_quantity ?? null,
    apply_to_quantity: input.apply_to_quantity ?? null,
    buy_rules_min_quantity: input.buy_rules_min_quantity ?? null,
    target_rules: toRules(input.target_rules),
    buy_rules: toRules(input.buy_rules),
  };
}

export async function promotionViews(ctx: Ctx, rows: q.PromotionRow[]): Promise<PromotionView[]> {
  const campaigns = new Map(
    (await q.campaignsByIds(executor(ctx), [...new Set(rows.map((r) => r.campaign_id).filter((x) => x !== null))])).map(
      (c) => [c.id, c],
    ),
  );
  return rows.map((r) => {
    const m = r.application_method;
    const campaign = r.campaign_id ? campaigns.get(r.campaign_id) : undefined;
    return {
      ...r,
      metadata: r.metadata ?? null,
      campaign: campaign ? campaignView(ctx, campaign) : null,
      application_method: {
        ...m,
        description: null,
        value: m.type === 'fixed' ? amountOut(ctx, m.value, m.currency_code) : m.value,
      },
    };
  });
}

export async function listPromotions(ctx: Ctx, filters: Parameters<typeof q.promotionFilters>[0], page: Page) {
  const { rows, count } = await q.listPromotionRows(ctx.db, q.promotionFilters(filters), page);
  return { promotions: await promotionViews(ctx, rows), count };
}

export async function getPromotion(ctx: Ctx, id: string): Promise<PromotionView> {
  const row = await q.findPromotion(executor(ctx), id);
  if (!row) throw notFound(id);
  return (await promotionViews(ctx, [row]))[0];
}

async function assertCampaign(tctx: TxCtx, id: string | null | undefined) {
  if (id && !(await q.findCampaign(tctx.tx, id))) throw errors.invalid('campaign_reference_missing', { id });
}

const payload = (p: PromotionView) => ({
  id: p.id,
  code: p.code,
  type: p.type,
  status: p.status,
  is_automatic: p.is_automatic,
});

export async function createPromotion(ctx: Ctx, input: CreatePromotionInput): Promise<PromotionView> {
  const now = ctx.clock.now();
  const method = methodOf(ctx, input.application_method);
  checkMethod(input.type, method);
  const row: q.PromotionRow = {
    id: newId('promo'),
    code: input.code,
    type: input.type,
    status: input.status ?? 'draft',
    is_automatic: input.is_automatic ?? false,
    is_tax_inclusive: input.is_tax_inclusive ?? false,
    campaign_id: input.campaign_id ?? null,
    application_method: method,
    rules: toRules(input.rules),
    metadata: input.metadata ?? null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  return inTx(ctx, async (tctx) => {
    await assertCampaign(tctx, row.campaign_id);
    try {
      await q.insertPromotion(tctx.tx, row);
    } catch (err) {
      throw isUniqueViolation(err) ? taken(input.code) : err;
    }
    const [view] = await promotionViews(tctx, [row]);
    await emit(tctx, 'promotion.created', payload(view));
    return view;
  });
}

export async function updatePromotion(ctx: Ctx, id: string, input: UpdatePromotionInput): Promise<PromotionView> {
  const now = ctx.clock.now();
  return inTx(ctx, async (tctx) => {
    const current = await q.findPromotion(tctx.tx, id);
    if (!current) throw notFound(id);
    const { application_method: am, rules, ...fields } = input;
    const patch: Partial<q.PromotionRow> = { ...fields, updated_at: now };
    if (rules) patch.rules = toRules(rules);
    if (am) {
      const old = current.application_method;
      const merged = {
        ...old,
        ...am,
        value: am.value ?? (old.type === 'fixed' ? amountOut(ctx, old.value, old.currency_code) : old.value),
        target_rules: am.target_rules,
        buy_rules: am.buy_rules,
      };
      const method = methodOf(ctx, merged as CreatePromotionInput['application_method'], old.id);
      if (!am.target_rules) method.target_rules = old.target_rules;
      if (!am.buy_rules) method.buy_rules = old.buy_rules;
      patch.application_method = method;
    }
    checkMethod(patch.type ?? current.type, patch.application_method ?? current.application_method);
    await assertCampaign(tctx, fields.campaign_id);
    let row: q.PromotionRow;
    try {
      row = await q.updatePromotionRow(tctx.tx, id, patch);
    } catch (err) {
      throw isUniqueViolation(err) ? taken(input.code ?? current.code) : err;
    }
    const [view] = await promotionViews(tctx, [row]);
    await emit(tctx, 'promotion.updated', payload(view));
    return view;
  });
}

export async function deletePromotion(ctx: Ctx, id: string) {
  return inTx(ctx, async (tctx) => {
    if (!(await q.softDeletePromotion(tctx.tx, id, ctx.clock.now()))) throw notFound(id);
    await emit(tctx, 'promotion.deleted', { id });
    return { id, object: 'promotion' as const, deleted: true as const };
  });
}

/**
 * `POST /admin/promotions/{id}/rules|target-rules|buy-rules/batch`: rules added, changed in place
 * (an id that is not one of this kind's rules is refused, nothing written) and removed.
 */
export async function batchRules(
  ctx: Ctx,
  id: string,
  kind: 'rules' | 'target_rules' | 'buy_rules',
  input: { create?: RuleInputT[]; update?: RuleUpdateT[]; delete?: string[] },
) {
  return inTx(ctx, async (tctx) => {
    const current = await q.findPromotion(tctx.tx, id);
    if (!current) throw notFound(id);
    const list = kind === 'rules' ? current.rules : current.application_method[kind];
    const updated: RuleJson[] = [];
    for (const u of input.update ?? []) {
      const old = list.find((r) => r.id === u.id);
      if (!old) throw errors.invalid('promotion_rule_not_found', { id: u.id });
      const [fresh] = toRules([{ attribute: old.attribute, operator: old.operator, values: [], ...u }]);
      updated.push({
        ...fresh,
        id: old.id,
        description: u.description === undefined ? old.description : fresh.description,
        values: u.values === undefined ? old.values : fresh.values,
      });
    }
    const changed = new Map(updated.map((r) => [r.id, r]));
    const created = toRules(input.create);
    const kept = [...list.filter((r) => !input.delete?.includes(r.id)).map((r) => changed.get(r.id) ?? r), ...created];
    const patch: Partial<q.PromotionRow> =
      kind === 'rules' ? { rules: kept } : { application_method: { ...current.application_method, [kind]: kept } };
    const row = await q.updatePromotionRow(tctx.tx, id, { ...patch, updated_at: ctx.clock.now() });
    const [view] = await promotionViews(tctx, [row]);
    await emit(tctx, 'promotion.updated', payload(view));
    return { created, updated, deleted: { ids: input.delete ?? [], object: 'promotion-rule', deleted: true } };
  });
}
