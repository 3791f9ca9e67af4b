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
  /** The campaign's budget, when it has one: what an order would use must fit in `limit - used`. */
  budget: { type: 'spend' | 'usage'; limit: number | null; used: number } | null;
}

/** A line or method as promotions see it: `subtotal` without tax, plus what rules read (`product`, …). */
export interface Discountable {
  id: string;
  subtotal: Dec;
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
  const ordered = [...promotions].sort((a, b) => Number(b.type === 'buyget') - Number(a.type === 'buyget'));
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

function standard(
  p: PromotionInput,
  targets: Discountable[],
  applied: Map<string, Dec>,
  kind: Adjustment['kind'],
  allocationOverride: 'across' | null,
): Computed {
  const m = p.application_method;
  const allocation = m.allocation ?? allocationOverride;
  const scope = kind === 'item' ? 'items' : 'shipping_methods';
  const eligible = targets.filter((t) => rulesHold(m.target_rules, t, scope));
  const left = (t: Discountable) => applied.get(t.id) ?? ZERO;
  const acrossTotal =
    allocation === 'across' ? eligible.reduce((s, t) => s.plus(t.subtotal).minus(left(t)), ZERO) : ZERO;
  const out: Computed = { adjustments: [], exceeded: [] };
  for (const t of eligible) {
    const quantity = kind === 'shipping_method' ? 1 : t.quantity;
    const maxQuantity = kind === 'shipping_method' ? 1 : m.max_quantity;
    const units = maxQuantity ? Math.min(quantity, maxQuantity) : quantity;
    // The whole line is its subtotal itself: unit × quantity would round past it at the 20th decimal.
    const lineTotal = units >= quantity ? t.subtotal : t.subtotal.div(quantity).times(units);
    const applicable = lineTotal.minus(left(t));
    if (applicable.lte(0)) continue;
    let value: Dec;
    if (m.type === 'percentage') value = dec(m.value).div(100).times(applicable);
    else if (allocation === 'across') value = acrossTotal.gt(0) ? applicable.div(acrossTotal).times(m.value) : ZERO;
    else value = dec(m.value);
    const amount = min(value, applicable);
    if (amount.lte(0)) continue;
    if (overBudget(p, amount)) {
      out.exceeded.push(p.code);
      continue;
    }
    applied.set(t.id, left(t).plus(amount));
    out.adjustments.push({ kind, target_id: t.id, promotion_id: p.id, code: p.code, amount });
  }
  return out;
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
    out.adjustments.push({ kind: 'item', target_id: t.id, promotion_id: p.id, code: p.code, amount });
  }
  return out;
}

const unit = (i: Discountable): BigNumber => i.subtotal.div(i.quantity || 1);
