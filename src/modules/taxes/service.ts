import { eq, type SQL } from 'drizzle-orm';
import { executor, inTx, type Ctx } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import type {
  CreateTaxRateInput,
  CreateTaxRegionInput,
  TaxRateView,
  TaxRegionView,
  UpdateTaxRateInput,
  UpdateTaxRegionInput,
} from './schema.ts';
import { taxRates, taxRegions } from './tables.ts';

/** Tax regions (a country, or a province of one) and their rates, as Medusa's admin manages them. */

const regionNotFound = (id: string) => errors.notFound('tax_region_not_found', { id });
const rateNotFound = (id: string) => errors.notFound('tax_rate_not_found', { id });
const actorId = (ctx: Ctx) => ctx.actor?.id ?? null;

function rateView(r: q.TaxRateRow, rules: q.TaxRuleRow[]): TaxRateView {
  return {
    ...r,
    rate: r.rate == null ? null : Number(r.rate),
    metadata: r.metadata ?? null,
    rules: rules
      .filter((x) => x.tax_rate_id === r.id)
      .map((x) => ({ id: x.id, reference: x.reference, reference_id: x.reference_id, tax_rate_id: x.tax_rate_id })),
  };
}

async function rateViews(ctx: Ctx, rows: q.TaxRateRow[]): Promise<TaxRateView[]> {
  const rules = await q.rulesOfRates(
    executor(ctx),
    rows.map((r) => r.id),
  );
  return rows.map((r) => rateView(r, rules));
}

async function regionViews(ctx: Ctx, rows: q.TaxRegionRow[]): Promise<TaxRegionView[]> {
  const rates = await rateViews(
    ctx,
    await q.ratesOfRegions(
      executor(ctx),
      rows.map((r) => r.id),
    ),
  );
  return rows.map((r) => ({
    ...r,
    metadata: r.metadata ?? null,
    tax_rates: rates.filter((x) => x.tax_region_id === r.id),
  }));
}

export async function listTaxRegions(
  ctx: Ctx,
  filters: { country_code?: string; province_code?: string; parent_id?: string },
  page: Page,
) {
  const where: SQL[] = [];
  if (filters.country_code) where.push(eq(taxRegions.country_code, filters.country_code.toLowerCase()));
  if (filters.province_code) where.push(eq(taxRegions.province_code, filters.province_code.toLowerCase()));
  if (filters.parent_id) where.push(eq(taxRegions.parent_id, filters.parent_id));
  const { rows, count } = await q.listRegionRows(ctx.db, where, page);
  return { tax_regions: await regionViews(ctx, rows), count };
}

export async function getTaxRegion(ctx: Ctx, id: string): Promise<TaxRegionView> {
  const row = await q.findRegion(executor(ctx), id);
  if (!row) throw regionNotFound(id);
  return (await regionViews(ctx, [row]))[0];
}

export async function createTaxRegion(ctx: Ctx, input: CreateTaxRegionInput): Promise<TaxRegionView> {
  const now = ctx.clock.now();
  const country = input.country_code.toLowerCase();
  const province = input.province_code?.toLowerCase() ?? null;
  return inTx(ctx, async (tctx) => {
    let parentId = input.parent_id ?? null;
    if (parentId) {
      const parent = await q.findRegion(tctx.tx, parentId);
      if (!parent) throw errors.invalid('tax_region_reference_missing', { id: parentId });
      if (parent.country_code !== country) throw errors.invalid('tax_region_province_outside_parent');
    }
    if (province && !parentId) {
      // A province belongs to its country's region, as Medusa requires it to exist.
      const parents = await q.listRegionRows(tctx.tx, [eq(taxRegions.country_code, country)], { limit: 50, offset: 0 });
      const parent = parents.rows.find((r) => r.province_code === null);
      if (!parent) throw errors.invalid('tax_region_parent_missing', { country });
      parentId = parent.id;
    }
    const row: q.TaxRegionRow = {
      id: newId('txreg'),
      country_code: country,
      province_code: province,
      parent_id: parentId,
      provider_id: input.provider_id ?? 'tp_system',
      metadata: input.metadata ?? null,
      created_by: actorId(ctx),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    try {
      await q.insertRegion(tctx.tx, row);
    } catch (err) {
      if (isUniqueViolation(err))
        throw errors.duplicate('invalid_request_error', {
          detail: `Tax region with country_code: ${country}${province ? `, province_code: ${province}` : ''}, already exists.`,
        });
      throw err;
    }
    const d = input.default_tax_rate;
    if (d)
      await q.insertRate(tctx.tx, {
        id: newId('txr'),
        tax_region_id: row.id,
        name: d.name,
        code: d.code,
        rate: d.rate == null ? null : String(d.rate),
        is_default: true,
        is_combinable: d.is_combinable ?? false,
        metadata: d.metadata ?? null,
        created_by: actorId(ctx),
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
    return getTaxRegion(tctx, row.id);
  });
}

export async function updateTaxRegion(ctx: Ctx, id: string, input: UpdateTaxRegionInput): Promise<TaxRegionView> {
  const patch: Partial<q.TaxRegionRow> = { updated_at: ctx.clock.now() };
  if (input.province_code !== undefined) patch.province_code = input.province_code?.toLowerCase() ?? null;
  if (input.provider_id !== undefined) patch.provider_id = input.provider_id ?? 'tp_system';
  if (input.metadata !== undefined) patch.metadata = input.metadata;
  if (!(await q.updateRegionRow(ctx.db, id, patch))) throw regionNotFound(id);
  return getTaxRegion(ctx, id);
}

export async function deleteTaxRegion(ctx: Ctx, id: string) {
  // Refused inside the transaction, so nothing of it commits (not even its audit entry).
  await inTx(ctx, async (tctx) => {
    if (!(await q.softDeleteRegion(tctx.tx, id, ctx.clock.now()))) throw regionNotFound(id);
  });
  return { id, object: 'tax_region' as const, deleted: true as const };
}

export async function listTaxRates(ctx: Ctx, filters: { tax_region_id?: string; is_default?: boolean }, page: Page) {
  const where: SQL[] = [];
  if (filters.tax_region_id) where.push(eq(taxRates.tax_region_id, filters.tax_region_id));
  if (filters.is_default !== undefined) where.push(eq(taxRates.is_default, filters.is_default));
  const { rows, count } = await q.listRateRows(ctx.db, where, page);
  return { tax_rates: await rateViews(ctx, rows), count };
}

export async function getTaxRate(ctx: Ctx, id: string): Promise<TaxRateView> {
  const row = await q.findRate(executor(ctx), id);
  if (!row) throw rateNotFound(id);
  return (await rateViews(ctx, [row]))[0];
}

function ruleRows(rateId: string, rules: { reference: string; reference_id: string }[], now: Date): q.TaxRuleRow[] {
  const seen = new Set<string>();
  return rules
    .filter((r) => !seen.has(`${r.reference}:${r.reference_id}`) && seen.add(`${r.reference}:${r.reference_id}`))
    .map((r) => ({ id: newId('txrule'), tax_rate_id: rateId, ...r, created_at: now, updated_at: now }));
}

export async function createTaxRate(ctx: Ctx, input: CreateTaxRateInput): Promise<TaxRateView> {
  const now = ctx.clock.now();
  return inTx(ctx, async (tctx) => {
    if (!(await q.findRegion(tctx.tx, input.tax_region_id)))
      throw errors.invalid('tax_region_reference_missing', { id: input.tax_region_id });
    if (input.is_default) await q.clearDefault(tctx.tx, input.tax_region_id, now);
    const id = newId('txr');
    await q.insertRate(tctx.tx, {
      id,
      tax_region_id: input.tax_region_id,
      name: input.name,
      code: input.code,
      rate: input.rate == null ? null : String(input.rate),
      is_default: input.is_default ?? false,
      is_combinable: input.is_combinable ?? false,
      metadata: input.metadata ?? null,
      created_by: actorId(ctx),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    await q.replaceRules(tctx.tx, id, ruleRows(id, input.rules ?? [], now));
    return getTaxRate(tctx, id);
  });
}

export async function updateTaxRate(ctx: Ctx, id: string, input: UpdateTaxRateInput): Promise<TaxRateView> {
  const now = ctx.clock.now();
  return inTx(ctx, async (tctx) => {
    const current = await q.findRate(tctx.tx, id);
    if (!current) throw rateNotFound(id);
    const { rules, rate, ...rest } = input;
    if (input.is_default && !current.is_default) await q.clearDefault(tctx.tx, current.tax_region_id, now);
    const patch: Partial<q.TaxRateRow> = { ...rest, updated_at: now };
    if (rate !== undefined) patch.rate = rate == null ? null : String(rate);
    await q.updateRateRow(tctx.tx, id, patch);
    if (rules) await q.replaceRules(tctx.tx, id, ruleRows(id, rules, now));
    return getTaxRate(tctx, id);
  });
}

export async function deleteTaxRate(ctx: Ctx, id: string) {
  if (!(await q.softDeleteRate(ctx.db, id, ctx.clock.now()))) throw rateNotFound(id);
  return { id, object: 'tax_rate' as const, deleted: true as const };
}
