import { exponentOf } from '../../platform/money/currencies.ts';
import type { PromotionInput } from './compute.ts';
import type { ApplicationMethodJson, RuleJson } from './shapes.ts';
import type { campaigns, promotions } from './tables.ts';

/**
 * A promotion as a cart read finds it (the row and its campaign, as JSON), and what makes it
 * usable now: active, inside its campaign's dates. The budget is checked by the computation
 * (an order that would exceed it gets no discount) and again when the order is placed.
 */
export interface StoredPromotion {
  promotion: typeof promotions.$inferSelect;
  campaign: typeof campaigns.$inferSelect | null;
  /** Applied to the cart by its code (else found because it is automatic). */
  applied: boolean;
}

export type Unusable = 'inactive' | 'not_started' | 'expired';

export function unusable(p: StoredPromotion, now: Date): Unusable | null {
  if (p.promotion.status !== 'active') return 'inactive';
  const c = p.campaign;
  if (c?.starts_at && new Date(c.starts_at) > now) return 'not_started';
  if (c?.ends_at && new Date(c.ends_at) <= now) return 'expired';
  return null;
}

const rule = (r: RuleJson) => ({ attribute: r.attribute, operator: r.operator, values: r.values.map((v) => v.value) });

export function toPromotionInput(p: StoredPromotion): PromotionInput {
  const m: ApplicationMethodJson = p.promotion.application_method;
  const c = p.campaign;
  return {
    id: p.promotion.id,
    code: p.promotion.code,
    type: p.promotion.type,
    is_tax_inclusive: p.promotion.is_tax_inclusive,
    rank: m.type === 'fixed' && m.currency_code ? Number(m.value) / 10 ** exponentOf(m.currency_code) : Number(m.value),
    rules: p.promotion.rules.map(rule),
    application_method: {
      type: m.type,
      target_type: m.target_type,
      allocation: m.allocation,
      value: m.value,
      max_quantity: m.max_quantity,
      apply_to_quantity: m.apply_to_quantity,
      buy_rules_min_quantity: m.buy_rules_min_quantity,
      target_rules: m.target_rules.map(rule),
      buy_rules: m.buy_rules.map(rule),
    },
    budget:
      c?.budget_type && c.budget_limit != null
        ? { type: c.budget_type as 'spend' | 'usage', limit: Number(c.budget_limit), used: Number(c.budget_used) }
        : null,
  };
}
