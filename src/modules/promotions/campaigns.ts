import { eq, ilike, type SQL } from 'drizzle-orm';
import { executor, inTx, type Ctx } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import type { CampaignView, CreateCampaignInput, UpdateCampaignInput } from './schema.ts';
import { campaigns } from './tables.ts';
import { amountIn, amountOut } from './units.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';

/** Campaigns: dates and a budget (spend or usage) shared by their promotions, as Medusa's admin manages them. */

const notFound = (id: string) => errors.notFound('campaign_not_found', { id });
const taken = (identifier: string) =>
  errors.duplicate('invalid_request_error', {
    detail: `Campaign with campaign_identifier: ${identifier}, already exists.`,
  });

export function campaignView(ctx: Ctx, c: q.CampaignRow): CampaignView {
  const currency = c.budget_currency_code;
  const money = c.budget_type === 'spend';
  return {
    id: c.id,
    name: c.name,
    campaign_identifier: c.campaign_identifier,
    description: c.description,
    starts_at: c.starts_at,
    ends_at: c.ends_at,
    budget: c.budget_type
      ? {
          id: c.budget_id ?? `probudg_${c.id}`,
          type: c.budget_type,
          limit:
            c.budget_limit == null
              ? null
              : money
                ? amountOut(ctx, Number(c.budget_limit), currency)
                : Number(c.budget_limit),
          used: money ? amountOut(ctx, Number(c.budget_used), currency) : Number(c.budget_used),
          currency_code: currency,
        }
      : null,
    created_at: c.created_at,
    updated_at: c.updated_at,
    deleted_at: c.deleted_at,
  };
}

function datesInOrder(starts: Date | null, ends: Date | null) {
  if (starts && ends && ends <= starts) throw errors.invalid('campaign_dates_inverted');
}

function budgetFields(ctx: Ctx, budget: CreateCampaignInput['budget']): Partial<q.CampaignRow> {
  if (budget === undefined) return {};
  if (budget === null) return { budget_type: null, budget_limit: null, budget_currency_code: null };
  const type = budget.type ?? 'spend';
  const currency = budget.currency_code?.toLowerCase() ?? null;
  if (type === 'spend' && !currency) throw errors.invalid('campaign_budget_currency_required');
  const limit =
    budget.limit == null
      ? null
      : type === 'spend'
        ? amountIn(ctx, budget.limit, currency, 'budget.limit')
        : budget.limit;
  if (type === 'usage' && limit != null && !Number.isInteger(limit))
    throw errors.invalid('campaign_usage_limit_fractional');
  return {
    budget_id: newId('probudg'),
    budget_type: type,
    budget_limit: limit == null ? null : String(limit),
    budget_currency_code: type === 'spend' ? currency : null,
  };
}

export async function listCampaigns(ctx: Ctx, f: { q?: string; campaign_identifier?: string }, page: Page) {
  const where: SQL[] = [];
  if (f.q) where.push(ilike(campaigns.name, containsPattern(f.q)));
  if (f.campaign_identifier) where.push(eq(campaigns.campaign_identifier, f.campaign_identifier));
  const { rows, count } = await q.listCampaignRows(ctx.db, where, page);
  return { campaigns: rows.map((c) => campaignView(ctx, c)), count };
}

export async function getCampaign(ctx: Ctx, id: string): Promise<CampaignView> {
  const row = await q.findCampaign(executor(ctx), id);
  if (!row) throw notFound(id);
  return campaignView(ctx, row);
}

export async function createCampaign(ctx: Ctx, input: CreateCampaignInput): Promise<CampaignView> {
  const now = ctx.clock.now();
  const starts = input.starts_at ? new Date(input.starts_at) : null;
  const ends = input.ends_at ? new Date(input.ends_at) : null;
  datesInOrder(starts, ends);
  const row: q.CampaignRow = {
    id: newId('procamp'),
    name: input.name,
    campaign_identifier: input.campaign_identifier,
    description: input.description ?? null,
    starts_at: starts,
    ends_at: ends,
    budget_id: null,
    budget_type: null,
    budget_limit: null,
    budget_used: '0',
    budget_currency_code: null,
    metadata: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    ...budgetFields(ctx, input.budget),
  };
  return inTx(ctx, async (tctx) => {
    try {
      await q.insertCampaign(tctx.tx, row);
    } catch (err) {
      throw isUniqueViolation(err) ? taken(input.campaign_identifier) : err;
    }
    await q.setCampaignOf(
      tctx.tx,
      (input.promotions ?? []).map((p) => p.id),
      row.id,
      now,
    );
    return campaignView(ctx, row);
  });
}

export async function updateCampaign(ctx: Ctx, id: string, input: UpdateCampaignInput): Promise<CampaignView> {
  const now = ctx.clock.now();
  return inTx(ctx, async (tctx) => {
    const current = await q.findCampaign(tctx.tx, id);
    if (!current) throw notFound(id);
    const patch: Partial<q.CampaignRow> = { updated_at: now };
    if (input.name !== undefined) patch.name = input.name;
    if (input.campaign_identifier !== undefined) patch.campaign_identifier = input.campaign_identifier;
    if (input.description !== undefined) patch.description = input.description;
    if (input.starts_at !== undefined) patch.starts_at = input.starts_at ? new Date(input.starts_at) : null;
    if (input.ends_at !== undefined) patch.ends_at = input.ends_at ? new Date(input.ends_at) : null;
    datesInOrder(patch.starts_at ?? current.starts_at, patch.ends_at ?? current.ends_at);
    if (input.budget !== undefined) {
      const b = input.budget
        ? { type: current.budget_type ?? undefined, currency_code: current.budget_currency_code, ...input.budget }
        : null;
      Object.assign(patch, budgetFields(ctx, b as CreateCampaignInput['budget']), {
        budget_id: current.budget_id ?? newId('probudg'),
      });
    }
    try {
      const row = await q.updateCampaignRow(tctx.tx, id, patch);
      if (input.promotions)
        await q.setCampaignOf(
          tctx.tx,
          input.promotions.map((p) => p.id),
          id,
          now,
        );
      return campaignView(ctx, row);
    } catch (err) {
      throw isUniqueViolation(err) ? taken(input.campaign_identifier ?? current.campaign_identifier) : err;
    }
  });
}

export async function deleteCampaign(ctx: Ctx, id: string) {
  // Refused inside the transaction, so nothing of it commits (not even its audit entry).
  await inTx(ctx, async (tctx) => {
    if (!(await q.softDeleteCampaign(tctx.tx, id, ctx.clock.now()))) throw notFound(id);
  });
  return { id, object: 'campaign' as const, deleted: true as const };
}

export async function changeCampaignPromotions(ctx: Ctx, id: string, input: { add?: string[]; remove?: string[] }) {
  const now = ctx.clock.now();
  return inTx(ctx, async (tctx) => {
    if (!(await q.findCampaign(tctx.tx, id))) throw notFound(id);
    await q.setCampaignOf(tctx.tx, input.add ?? [], id, now);
    await q.setCampaignOf(tctx.tx, input.remove ?? [], null, now);
    return campaignView(ctx, (await q.findCampaign(tctx.tx, id))!);
  });
}
