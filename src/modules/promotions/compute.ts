import type BigNumber from 'bignumber.js';
import { dec, ZERO, type Dec } from '../totals/charge-totals.ts';
import { rulesHold, type Rule } from './rules.ts';

/**
 * Which discounts a cart gets from its promotions, as Medusa's promotion module computes them:
 * each promotion in turn (buy-get first), each taking what earlier ones left of a line. Pure: the
 * cart is described by plain values, and adjustments come out (amounts without tax, minor units).
 */

export interface PromotionInput {
  id: string;
  code: string;
  type: 'standard' | 'buyget';
  /** The value is money with tax: computed on the lines' `original_total`, stored with tax. */
  is_tax_inclusive?: boolean;
  rules: Rule[];
  application_method: {
    type: 'fixed' | 'percentage';
    target_type: 'items' | 'shipping_methods' | 'order';
    allocation: 'each' | 'across' | null;
    value: string | number;
    max_quantity: number | null;
    apply_to_quantity: number | null;
    buy_rules_min_quantity: number | null;
    target_rules: Rule[];
    buy_rules: Rule[];
  };
  /** What Medusa orders promotions by: the value as its API shows it (a fixed one in major units). */
  rank?: number;
  /** The campaign's budget, when it has one: what an order would use must fit in `limit - used`. */
  budget: { type: 'spend' | 'usage'; limit: number | null; used: number } | null;
}

/** A line or method as promotions see it: `subtotal` without tax, plus what rules read (`product`, …). */
export interface Discountable {
  id: string;
  subtotal: Dec;
  /** With tax, before discounts (what a tax-inclusive promotion is computed on); default `subtotal`. */
  original_total?: Dec;
  quantity: number;
  [attribute: string]: unknown;
}

export interface PromotionContext {
  items: Discountable[];
  shipping_methods: Discountable[];
  [attribute: string]: unknown;
}

export interface Adjustment {
  kind: 'item' | 'shipping_method';
  target_id: string;
  promotion_id: string;
  code: string;
  amount: Dec;
  /** The amount includes tax (a tax-inclusive promotion's). */
  is_tax_inclusive: boolean;
}

export interface Computed {
  adjustments: Adjustment[];
  /** Codes whose campaign budget this cart would exceed (Medusa's `campaign_budget_exceeded`). */
  exceeded: string[];
}

const min = (a: Dec, b: Dec) => (a.lte(b) ? a : b);

export function computeAdjustments(promotions: PromotionInput[], context: PromotionContext): Computed {
  const applied = new Map<string, Dec>();
  const out: Computed = { adjustments: [], exceeded: [] };
  // Medusa's order: buy-get first, then the larger `value` first (percent and money alike).
  const ordered = [...promotions].sort(
    (a, b) =>
      Number(b.type === 'buyget') - Number(a.type === 'buyget') ||
      (b.rank ?? Number(b.application_method.value)) - (a.rank ?? Number(a.application_method.value)),
  );
  for (const p of ordered) {
    if (!rulesHold(p.rules, context, 'order')) continue;
    const found =
      p.type === 'buyget'
        ? buyGet(p, context.items, applied)
        : p.application_method.target_type === 'shipping_methods'
          ? standard(p, context.shipping_methods, applied, 'shipping_method', null)
          : standard(p, context.items, applied, 'item', p.application_method.target_type === 'order' ? 'across' : null);
    out.adjustments.push(...found.adjustments);
    out.exceeded.push(...found.exceeded);
  }
  return out;
}

function overBudget(p: PromotionInput, amount: Dec): boolean {
  if (!p.budget?.limit) return false;
  const used = p.budget.type === 'spend' ? dec(p.budget.used).plus(amount) : dec(p.budget.used).plus(1);
  return used.gt(p.budget.limit);
}

/**
 * A standard promotion on lines or shipping methods, as Medusa 2.21's `applyPromotionToItems` and
 * `applyPromotionToShippingMethods`: `applied` holds, per target, the discounts so far without tax.
 */
function standard(
  p: PromotionInput,
  targets: Discountable[],
  applied: Map<string, Dec>,
  kind: Adjustment['kind'],
  allocationOverride: 'across' | null,
): Computed {
  const m = p.application_method;
  const allocation = m.allocation ?? allocationOverride;
  const shipping = kind === 'shipping_method';
  const inclusive = !shipping && !!p.is_tax_inclusive;
  const eligible = targets.filter(
    (t) =>
      t.subtotal.gt(0) &&
      (shipping || t.is_discountable !== false) &&
      rulesHold(m.target_rules, t, shipping ? 'shipping_methods' : 'items'),
  );
  // A tax-inclusive promotion reads lines with their tax; what was applied is kept without it.
  const base = (t: Discountable) => (inclusive ? (t.original_total ?? t.subtotal) : t.subtotal);
  const appliedIn = (t: Discountable) => {
    const a = applied.get(t.id) ?? ZERO;
    return inclusive && t.subtotal.gt(0) ? a.times(base(t).div(t.subtotal)) : a;
  };
  const acrossTotal = eligible.reduce((s, t) => s.plus(base(t)).minus(appliedIn(t)), ZERO);
  const out: Computed = { adjustments: [], exceeded: [] };
  if (allocation === 'across' && acrossTotal.lte(0)) return out;
  for (const t of eligible) {
    let amount: Dec;
    if (shipping) {
      const left = t.subtotal.minus(appliedIn(t));
      const value =
        m.type === 'percentage'
          ? dec(m.value).div(100).times(left)
          : allocation === 'across'
            ? left.div(acrossTotal).times(m.value)
            : dec(m.value);
      amount = min(value, left);
      if (amount.lte(0)) continue;
    } else {
      amount = itemAmount(m, t, base(t), appliedIn(t), allocation, acrossTotal);
      if (amount.lte(EPSILON)) continue;
    }
    if (overBudget(p, amount)) {
      out.exceeded.push(p.code);
      continue;
    }
    const net = inclusive ? amount.times(t.subtotal.div(base(t))) : amount;
    applied.set(t.id, (applied.get(t.id) ?? ZERO).plus(net));
    out.adjustments.push({
      kind,
      target_id: t.id,
      promotion_id: p.id,
      code: p.code,
      amount,
      is_tax_inclusive: inclusive,
    });
  }
  return out;
}

/** Medusa's "epsilon": amounts at or below it are no discount. */
const EPSILON = dec('0.0001');

/** Medusa's `calculateAdjustmentAmountFromPromotion` for one line. */
function itemAmount(
  m: PromotionInput['application_method'],
  t: Discountable,
  base: Dec,
  appliedValue: Dec,
  allocation: 'each' | 'across' | null,
  acrossTotal: Dec,
): Dec {
  const quantity = t.quantity || 1;
  const unitBase = base.div(quantity);
  let applicable: Dec;
  if (allocation === 'across') {
    const units = m.max_quantity ? Math.min(t.quantity, m.max_quantity) : t.quantity;
    // Capped at the line: base / quantity × quantity can round a last digit above base.
    applicable = min(unitBase.times(units), base).minus(appliedValue);
  } else {
    // Each: at most `max_quantity` units (one without it) of what is left of the line.
    applicable = min(base.minus(appliedValue), unitBase.times(m.max_quantity ?? 1));
  }
  if (applicable.lte(EPSILON)) return ZERO;
  let value: Dec;
  if (m.type === 'percentage') value = dec(m.value).div(100).times(applicable);
  else if (allocation === 'across') value = applicable.div(acrossTotal).times(m.value);
  else value = dec(m.value).times(Math.min(t.quantity, m.max_quantity ?? 1));
  return min(value, applicable);
}

/**
 * Buy X get Y: with at least `buy_rules_min_quantity` units matching the buy rules in the cart,
 * up to `apply_to_quantity` units matching the target rules (cheapest first, as Medusa) get the
 * discount. Units counted for buying are not given away.
 */
function buyGet(p: PromotionInput, items: Discountable[], applied: Map<string, Dec>): Computed {
  const m = p.application_method;
  const out: Computed = { adjustments: [], exceeded: [] };
  const minBuy = m.buy_rules_min_quantity ?? 0;
  const buyers = items.filter((i) => rulesHold(m.buy_rules, i, 'items'));
  const bought = buyers.reduce((s, i) => s + i.quantity, 0);
  if (!minBuy || bought < minBuy) return out;
  // Units reserved for the "buy" side, most expensive first, so the cheapest targets are free.
  const reserved = new Map<string, number>();
  let need = minBuy;
  for (const i of [...buyers].sort((a, b) => unit(b).comparedTo(unit(a)) ?? 0)) {
    if (!need) break;
    const take = Math.min(need, i.quantity);
    reserved.set(i.id, take);
    need -= take;
  }
  let give = m.apply_to_quantity ?? 0;
  const targets = items
    .filter((i) => rulesHold(m.target_rules, i, 'items'))
    .sort((a, b) => unit(a).comparedTo(unit(b)) ?? 0);
  for (const t of targets) {
    if (give <= 0) break;
    const free = t.quantity - (reserved.get(t.id) ?? 0);
    const units = Math.min(free, give);
    if (units <= 0) continue;
    const applicable = min(unit(t).times(units), t.subtotal).minus(applied.get(t.id) ?? ZERO);
    if (applicable.lte(0)) continue;
    const value = m.type === 'percentage' ? dec(m.value).div(100).times(applicable) : dec(m.value).times(units);
    const amount = min(value, applicable);
    if (overBudget(p, amount)) {
      out.exceeded.push(p.code);
      continue;
    }
    give -= units;
    applied.set(t.id, (applied.get(t.id) ?? ZERO).plus(amount));
    out.adjustments.push({
      kind: 'item',
      target_id: t.id,
      promotion_id: p.id,
      code: p.code,
      amount,
      is_tax_inclusive: false,
    });
  }
  return out;
}

const unit = (i: Discountable): BigNumber => i.subtotal.div(i.quantity || 1);
