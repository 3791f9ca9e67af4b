import { inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import type { Providers } from '../../platform/providers.ts';
import { DEFAULT_PROFILE } from '../fulfillment/service.ts';
import { findProfile, regionZone } from '../fulfillment/queries.ts';
import { assertProvider, callFulfillmentProvider, MANUAL_PROVIDER } from '../fulfillment/providers.ts';
import type { PriceRule } from '../fulfillment/tables.ts';
import * as q from './queries.ts';
import { eligibleOptionRows, type CartShippingFacts } from './store-queries.ts';
import { insertOptionType } from './option-types.ts';
import { findLiveType } from './type-queries.ts';
import type {
  CreateShippingOptionInput,
  PriceInputT,
  ShippingOptionView,
  UpdateShippingOptionInput,
} from './schema.ts';

const notFound = (id: string) => errors.notFound('shipping_option_not_found', { id });
const missing = (what: string, id: string) => errors.invalid('shipping_option_reference_missing', { what, id });

function priceView(p: q.PriceRow) {
  return {
    id: p.id,
    currency_code: p.currency_code,
    region_id: p.region_id,
    amount: p.amount,
    price_rules: p.rules.map((r) => ({ ...r })),
    rules_count: p.rules.length + (p.region_id ? 1 : 0),
  };
}

function view(row: q.ShippingOptionRow, prices: q.PriceRow[], rules: q.RuleRow[]): ShippingOptionView {
  const { deleted_at: _deleted, type, type_id, ...rest } = row;
  return {
    ...rest,
    data: rest.data ?? null,
    type: type ? { id: type_id ?? `sotype_${row.id}`, ...type, description: type.description ?? '' } : null,
    prices: prices.filter((p) => p.shipping_option_id === row.id).map(priceView),
    rules: rules
      .filter((r) => r.shipping_option_id === row.id)
      .map((r) => ({ id: r.id, attribute: r.attribute, operator: r.operator, value: JSON.parse(r.value) })),
  };
}

/** Options as the admin sees them, prices and rules read once for all. */
async function views(db: Executor, rows: q.ShippingOptionRow[]): Promise<ShippingOptionView[]> {
  const ids = rows.map((r) => r.id);
  const [prices, rules] = await Promise.all([q.pricesOf(db, ids), q.rulesOf(db, ids)]);
  return rows.map((r) => view(r, prices, rules));
}

export async function listShippingOptions(ctx: Ctx, filters: q.OptionFilters, page: Page) {
  const rows = page.limit === 0 ? [] : await q.listOptionRows(ctx.db, filters, page);
  return { shipping_options: await views(ctx.db, rows), count: await q.countOptions(ctx.db, filters) };
}

export async function getShippingOption(ctx: Ctx, id: string): Promise<ShippingOptionView> {
  const found = await findShippingOption(ctx.db, id);
  if (!found) throw notFound(id);
  return found;
}

/**
 * The live options that serve these facts (region, sales channel, address, profiles), as the
 * admin shows options: the order desk's `GET /admin/orders/{id}/shipping-options`.
 */
export async function optionsServing(db: Executor, facts: CartShippingFacts): Promise<ShippingOptionView[]> {
  return views(db, await eligibleOptionRows(db, facts));
}

/** A live option (carts, the order desk); the caller words its own error. */
export async function findShippingOption(db: Executor, id: string): Promise<ShippingOptionView | null> {
  const row = await q.findLiveOption(db, id);
  return row ? (await views(db, [row]))[0] : null;
}

async function assertRegion(db: Executor, regionId: string): Promise<void> {
  if (!(await q.liveRegionIds(db, [regionId])).has(regionId)) throw missing('Region', regionId);
}

async function priceRows(db: Executor, optionId: string, prices: PriceInputT[], at: Date) {
  const regionIds = [...new Set(prices.flatMap((p) => (p.region_id ? [p.region_id] : [])))];
  const found = await q.liveRegionIds(db, regionIds);
  for (const id of regionIds) if (!found.has(id)) throw missing('Region', id);
  return prices.map((p) => {
    if (!p.region_id && !p.currency_code) throw errors.invalid('shipping_option_prices_required');
    return {
      id: newId('sopr'),
      shipping_option_id: optionId,
      currency_code: p.region_id ? null : (p.currency_code as string).toLowerCase(),
      region_id: p.region_id ?? null,
      amount: p.amount,
      rules: (p.rules ?? []) as PriceRule[],
      created_at: at,
      updated_at: at,
    };
  });
}

/** An option's rule rows, as made on create, on update and by the rules batch. */
export function ruleRows(optionId: string, rules: NonNullable<CreateShippingOptionInput['rules']>, at: Date) {
  return rules.map((r) => ({
    id: newId('sorul'),
    shipping_option_id: optionId,
    attribute: r.attribute,
    operator: r.operator,
    value: JSON.stringify(r.value),
    created_at: at,
    updated_at: at,
  }));
}

/**
 * The type an option write names: `type_id` (a shared type, copied onto the option) or an inline
 * `type` (a type of its own, made now). Undefined when the write names neither.
 */
async function resolveType(
  db: Executor,
  input: { type?: { label: string; code: string; description?: string }; type_id?: string },
  at: Date,
): Promise<{ type_id: string; type: { label: string; code: string; description: string } } | undefined> {
  if (input.type_id) {
    const found = await findLiveType(db, input.type_id);
    if (!found) throw missing('Shipping option type', input.type_id);
    return { type_id: found.id, type: { label: found.label, code: found.code, description: found.description } };
  }
  if (!input.type) return undefined;
  const type = { description: '', ...input.type };
  return { type_id: await insertOptionType(db, type, at), type };
}

/** Profile and provider named by a write exist; a calculated option needs a provider that calculates. */
async function assertReferences(
  db: Executor,
  providers: Providers | undefined,
  input: { shipping_profile_id?: string; provider_id?: string; price_type?: 'flat' | 'calculated' },
  providerId: string,
) {
  if (input.shipping_profile_id && !(await findProfile(db, input.shipping_profile_id)))
    throw missing('Shipping profile', input.shipping_profile_id);
  if (providerId !== MANUAL_PROVIDER) {
    if (!providers) throw missing('Fulfillment provider', providerId);
    assertProvider(providers, providerId);
  }
  if (input.price_type === 'calculated') {
    const answer = providers
      ? await callFulfillmentProvider(providers, providerId, 'canCalculate', {})
      : { can_calculate: false };
    if (!answer.can_calculate) throw errors.invalid('fulfillment_provider_cannot_calculate', { id: providerId });
  }
}

/** A location linked to providers ships only through them (one linked to none, through any). */
async function assertProviderAtZone(db: Executor, providerId: string, zoneId: string): Promise<void> {
  const refused = await q.locationRefusingProvider(db, zoneId, providerId);
  if (refused) throw errors.invalid('fulfillment_provider_not_at_location', { id: providerId, location: refused });
}

/**
 * The spec's `{ name, region_id, amount }` makes a flat option of the region, in the region's
 * zone of the default location (made on first use); Medusa's `{ service_zone_id, prices, … }`
 * makes an option of that zone.
 */
export async function createShippingOption(
  ctx: Ctx,
  input: CreateShippingOptionInput,
  providers?: Providers,
): Promise<ShippingOptionView> {
  return inTx(ctx, async ({ tx, clock }) => {
    const at = clock.now();
    const id = newId('so');
    const providerId = input.provider_id ?? MANUAL_PROVIDER;
    const legacy = !input.service_zone_id;
    if (legacy) {
      if (!input.region_id || input.amount === undefined || input.price_type === 'calculated')
        throw errors.invalid('shipping_option_prices_required');
      await assertRegion(tx, input.region_id);
    } else {
      if (!(await q.findLiveZone(tx, input.service_zone_id as string)))
        throw missing('Service zone', input.service_zone_id as string);
      if (input.region_id) await assertRegion(tx, input.region_id);
      if ((input.price_type ?? 'flat') === 'flat' && !input.prices?.length && input.amount === undefined)
        throw errors.invalid('shipping_option_prices_required');
    }
    await assertReferences(tx, providers, input, providerId);
    const zone = legacy ? await regionZone(tx, input.region_id as string, at) : (input.service_zone_id as string);
    if (!legacy) await assertProviderAtZone(tx, providerId, zone);
    const typed = await resolveType(tx, input, at);
    await q.insertOption(tx, {
      id,
      name: input.name,
      region_id: input.region_id ?? null,
      amount: input.region_id ? (input.amount ?? null) : null,
      price_type: input.price_type ?? 'flat',
      provider_id: providerId,
      service_zone_id: zone,
      shipping_profile_id: input.shipping_profile_id ?? DEFAULT_PROFILE,
      type: typed?.type ?? null,
      type_id: typed?.type_id ?? null,
      data: input.data ?? null,
      metadata: input.metadata ?? null,
      created_at: at,
      updated_at: at,
    });
    const prices: PriceInputT[] = [...(input.prices ?? [])];
    if (input.region_id && input.amount !== undefined)
      prices.unshift({ region_id: input.region_id, amount: input.amount });
    if (input.price_type !== 'calculated') await q.replacePrices(tx, id, await priceRows(tx, id, prices, at));
    await q.replaceRules(tx, id, ruleRows(id, input.rules ?? [], at));
    return (await findShippingOption(tx, id)) as ShippingOptionView;
  });
}

/**
 * `prices` and `rules` replace the lists. The spec's `amount` and `region_id` change the
 * region's price (and move the option to that region's zone).
 */
export async function updateShippingOption(
  ctx: Ctx,
  id: string,
  input: UpdateShippingOptionInput,
  providers?: Providers,
): Promise<ShippingOptionView> {
  return inTx(ctx, async ({ tx, clock }) => {
    const current = await q.findLiveOption(tx, id);
    if (!current) throw notFound(id);
    const at = clock.now();
    if (input.region_id !== undefined) await assertRegion(tx, input.region_id);
    const providerId = input.provider_id ?? current.provider_id;
    await assertReferences(tx, providers, { ...input, price_type: input.price_type }, providerId);
    if (input.provider_id && current.service_zone_id)
      await assertProviderAtZone(tx, input.provider_id, current.service_zone_id);
    const { prices, rules, type_id: _typeId, type: _type, ...fields } = input;
    const patch: Parameters<typeof q.updateOptionRow>[2] = { ...fields, updated_at: at };
    const typed = await resolveType(tx, input, at);
    if (typed) Object.assign(patch, typed);
    const regionId = input.region_id ?? current.region_id;
    if (input.region_id && input.region_id !== current.region_id && current.region_id)
      patch.service_zone_id = await regionZone(tx, input.region_id, at);
    await q.updateOptionRow(tx, id, patch);
    const legacyChanged = regionId && (input.amount !== undefined || input.region_id !== undefined);
    if (prices || legacyChanged) {
      const old = (await q.pricesOf(tx, [id])).filter((p) => !(p.region_id === current.region_id && !p.rules.length));
      const next: PriceInputT[] =
        prices ??
        old.map((p) => ({
          ...(p.region_id ? { region_id: p.region_id } : { currency_code: p.currency_code }),
          amount: p.amount,
          rules: p.rules,
        }));
      const amount = input.amount ?? current.amount;
      if (regionId && amount !== null && amount !== undefined) next.unshift({ region_id: regionId, amount });
      await q.replacePrices(tx, id, await priceRows(tx, id, next, at));
    }
    if (rules) await q.replaceRules(tx, id, ruleRows(id, rules, at));
    return (await findShippingOption(tx, id)) as ShippingOptionView;
  });
}

export async function deleteShippingOption(ctx: Ctx, id: string) {
  return inTx(ctx, async ({ tx, clock }) => {
    if (!(await q.softDeleteOption(tx, id, clock.now()))) throw notFound(id);
    return { id, object: 'shipping_option' as const, deleted: true as const };
  });
}

/** Where an option's parcels leave from (or, for a return option, go back to): its zone's location. */
export const optionLocation = (db: Executor, optionId: string) => q.locationOfOption(db, optionId);
