import { toMinor } from '../../lib/format.ts';
import {
  CART_ATTRIBUTES,
  ITEM_ATTRIBUTES,
  SHIPPING_ATTRIBUTES,
  digitsOf,
  draftOf,
  ruleBody,
  type ApiRule,
  type AttributeDef,
  type DraftRule,
} from './words.ts';

/**
 * The promotion form's state and the API body made from it, for a new promotion and for one
 * being edited (the same fields: Medusa's update takes the whole application method). Pure, so
 * the checks run without a browser.
 */

export interface Draft {
  code: string;
  is_automatic: 'code' | 'automatic';
  status: string;
  type: 'standard' | 'buyget';
  method: 'percentage' | 'fixed';
  value: string;
  currency_code: string;
  target_type: 'items' | 'shipping_methods' | 'order';
  allocation: 'each' | 'across';
  max_quantity: string;
  buy_rules_min_quantity: string;
  apply_to_quantity: string;
  rules: DraftRule[];
  target_rules: DraftRule[];
  buy_rules: DraftRule[];
  campaign: 'none' | 'new' | 'existing';
  campaign_id: string;
  campaign_name: string;
  budget_type: 'usage' | 'spend';
  budget_limit: string;
  starts_at: string;
  ends_at: string;
}

export const EMPTY: Draft = {
  code: '',
  is_automatic: 'code',
  status: 'draft',
  type: 'standard',
  method: 'percentage',
  value: '',
  currency_code: 'eur',
  target_type: 'items',
  allocation: 'across',
  max_quantity: '1',
  buy_rules_min_quantity: '2',
  apply_to_quantity: '1',
  rules: [],
  target_rules: [],
  buy_rules: [],
  campaign: 'none',
  campaign_id: '',
  campaign_name: '',
  budget_type: 'usage',
  budget_limit: '',
  starts_at: '',
  ends_at: '',
};

/** A promotion as the API answers it (the fields the form edits). */
export interface PromotionLike {
  code: string;
  type: string;
  status: string;
  is_automatic: boolean;
  campaign_id: string | null;
  application_method: {
    type: string;
    value: number;
    currency_code: string | null;
    target_type: string;
    allocation: string | null;
    max_quantity: number | null;
    apply_to_quantity: number | null;
    buy_rules_min_quantity: number | null;
    target_rules: ApiRule[];
    buy_rules: ApiRule[];
  };
  rules: ApiRule[];
}

/** The form filled with a saved promotion (a fixed value in the currency's units, as typed). */
export function draftOfPromotion(p: PromotionLike): Draft {
  const m = p.application_method;
  const currency = m.currency_code ?? 'eur';
  return {
    ...EMPTY,
    code: p.code,
    is_automatic: p.is_automatic ? 'automatic' : 'code',
    status: p.status,
    type: p.type === 'buyget' ? 'buyget' : 'standard',
    method: m.type === 'fixed' ? 'fixed' : 'percentage',
    value: m.type === 'fixed' ? (m.value / 10 ** digitsOf(currency)).toFixed(digitsOf(currency)) : String(m.value),
    currency_code: currency,
    target_type: (m.target_type as Draft['target_type']) ?? 'items',
    allocation: m.allocation === 'each' ? 'each' : 'across',
    max_quantity: String(m.max_quantity ?? 1),
    buy_rules_min_quantity: String(m.buy_rules_min_quantity ?? 2),
    apply_to_quantity: String(m.apply_to_quantity ?? 1),
    rules: p.rules.map((r) => draftOf(r, currency)),
    target_rules: m.target_rules.map((r) => draftOf(r, currency)),
    buy_rules: m.buy_rules.map((r) => draftOf(r, currency)),
    campaign: p.campaign_id ? 'existing' : 'none',
    campaign_id: p.campaign_id ?? '',
  };
}

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text) : Number.NaN);

function rulesOf(rules: DraftRule[], currency: string, defs: AttributeDef[]) {
  const out = [];
  for (const r of rules) {
    const body = ruleBody(r, currency, defs);
    if ('error' in body) throw new Error(body.error);
    out.push(body);
  }
  return out;
}

/**
 * The promotion's body for `POST /admin/promotions` (and `/{id}`), without its campaign: a
 * message (thrown) names what is missing before anything is sent. Amounts go in minor units.
 */
export function promotionBody(v: Draft, campaignId: string | null) {
  const fixed = v.method === 'fixed';
  const value = fixed ? toMinor(v.value, v.currency_code) : Number(v.value.replace(',', '.'));
  if (value === null || !Number.isFinite(value) || value <= 0)
    throw new Error(fixed ? 'The amount must be a positive number, e.g. 5.00' : 'The percentage must be above 0');
  const currency = v.currency_code.trim().toLowerCase();
  const buyget = v.type === 'buyget';
  // Buy X get Y gives items, unit by unit: Medusa's shape of it.
  const target_type = buyget ? 'items' : v.target_type;
  const allocation = buyget ? 'each' : target_type === 'order' ? 'across' : v.allocation;
  const each = allocation === 'each' && target_type === 'items';
  let max_quantity: number | null = null;
  let apply_to_quantity: number | null = null;
  let buy_rules_min_quantity: number | null = null;
  if (buyget) {
    buy_rules_min_quantity = whole(v.buy_rules_min_quantity);
    apply_to_quantity = whole(v.apply_to_quantity);
    if (!(buy_rules_min_quantity >= 1)) throw new Error('How many the customer buys: a whole number, at least 1');
    if (!(apply_to_quantity >= 1)) throw new Error('How many the customer gets: a whole number, at least 1');
    if (!v.buy_rules.length) throw new Error('Say which items count as bought (add a buy rule)');
    if (!v.target_rules.length) throw new Error('Say which items are given at a discount (add a target)');
    max_quantity = apply_to_quantity;
  } else if (each) {
    max_quantity = whole(v.max_quantity);
    if (!(max_quantity >= 1)) throw new Error('Units per line: a whole number, at least 1');
  }
  return {
    code: v.code.trim(),
    type: v.type,
    is_automatic: v.is_automatic === 'automatic',
    status: v.status as 'draft' | 'active' | 'inactive',
    campaign_id: campaignId,
    application_method: {
      type: v.method,
      value,
      currency_code: fixed ? currency : null,
      target_type,
      allocation,
      max_quantity,
      apply_to_quantity,
      buy_rules_min_quantity,
      target_rules:
        target_type === 'order'
          ? []
          : rulesOf(v.target_rules, currency, target_type === 'items' ? ITEM_ATTRIBUTES : SHIPPING_ATTRIBUTES),
      buy_rules: buyget ? rulesOf(v.buy_rules, currency, ITEM_ATTRIBUTES) : [],
    },
    rules: rulesOf(v.rules, currency, CART_ATTRIBUTES),
  };
}

/** The body, or null while the form cannot make one yet (for the sentence shown as one types). */
export function tryBody(v: Draft): ReturnType<typeof promotionBody> | null {
  try {
    return promotionBody(v, null);
  } catch {
    return null;
  }
}
