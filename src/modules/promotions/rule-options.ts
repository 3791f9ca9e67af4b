import { executor, type Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { countryCodes, countryInfo } from '../regions/iso-codes.ts';
import { currencies } from '../stores/currencies.ts';
import { type OptionFilter, type OptionTable, tableOptions, type ValueOption } from './rule-option-queries.ts';
import type { PromotionView } from './schema.ts';
import { getPromotion } from './service.ts';

/**
 * What Medusa's admin builds its promotion rule editor from: the attributes a rule of each kind
 * may test (with their operators and how their value is picked), the values one attribute may take
 * (`{ label, value }`, from the shop's regions, groups, catalog, or the ISO lists), and a
 * promotion's rules with labels. The attributes are those the cart's promotion context carries
 * (cart-pricing/price-cart.ts); a disguised attribute is a field of the application method the
 * editor shows as a rule (its currency, a buy-get's quantities).
 */

export type RuleType = 'rules' | 'target-rules' | 'buy-rules';

const OPERATORS = {
  in: { id: 'in', value: 'in', label: 'In' },
  eq: { id: 'eq', value: 'eq', label: 'Equals' },
  ne: { id: 'ne', value: 'ne', label: 'Not In' },
} as const;
const ALL_OPERATORS = Object.values(OPERATORS);

export interface RuleAttribute {
  id: string;
  value: string;
  label: string;
  required: boolean;
  field_type: 'multiselect' | 'select' | 'number';
  operators: { id: string; value: string; label: string }[];
  /** Not a rule: the application method's field of the same id, shown as one. */
  disguised?: boolean;
  /** Its values are labeled in place, not listed as a rule of their own. */
  hydrate?: boolean;
}

const picked = (id: string, value: string, label: string): RuleAttribute => ({
  id,
  value,
  label,
  required: false,
  field_type: 'multiselect',
  operators: [...ALL_OPERATORS],
});
const disguised = (id: string, label: string, field_type: 'select' | 'number', required: boolean): RuleAttribute => ({
  id,
  value: id,
  label,
  required,
  field_type,
  disguised: true,
  ...(field_type === 'select' ? { hydrate: true } : {}),
  operators: [OPERATORS.eq],
});

// Medusa's also offers `sales_channel_id`; the cart's promotion context carries no channel, so such
// a rule would never hold here: it is left out until the context has it.
const CART_ATTRIBUTES = [
  picked('customer_group', 'customer.groups.id', 'Customer Group'),
  picked('region', 'region.id', 'Region'),
  picked('country', 'shipping_address.country_code', 'Country'),
];
const ITEM_ATTRIBUTES = [
  picked('product', 'items.product.id', 'Product'),
  picked('product_category', 'items.product.categories.id', 'Product Category'),
  picked('product_collection', 'items.product.collection_id', 'Product Collection'),
  picked('product_type', 'items.product.type_id', 'Product Type'),
  picked('product_tag', 'items.product.tags.id', 'Product Tag'),
];

export interface PromotionKind {
  promotion_type?: string;
  application_method_type?: string;
}

/** The attributes a rule of `ruleType` may test, for a promotion of that type and method. */
export function ruleAttributes(ruleType: RuleType, kind: PromotionKind): RuleAttribute[] {
  if (ruleType === 'rules')
    return [
      ...CART_ATTRIBUTES,
      // A fixed amount is in one currency: the editor must ask for it.
      disguised('currency_code', 'Currency Code', 'select', kind.application_method_type === 'fixed'),
    ];
  const buyget = kind.promotion_type === 'buyget';
  if (ruleType === 'buy-rules')
    return [
      ...ITEM_ATTRIBUTES,
      ...(buyget ? [disguised('buy_rules_min_quantity', 'Minimum quantity of items', 'number', true)] : []),
    ];
  return [
    ...ITEM_ATTRIBUTES,
    ...(buyget ? [disguised('apply_to_quantity', 'Quantity of items promotion will apply to', 'number', true)] : []),
  ];
}

const TABLES: Record<string, OptionTable> = {
  region: { table: 'regions' },
  customer_group: { table: 'customer_groups' },
  product: { table: 'products' },
  product_category: { table: 'categories' },
  product_collection: { table: 'product_collections' },
  product_type: { table: 'product_types' },
  product_tag: { table: 'product_tags' },
};

/** The ISO lists (every country, every currency), filtered and paged as the tables are. */
function listOptions(all: ValueOption[], f: OptionFilter): ValueOption[] {
  const only = f.values && new Set(f.values.map((v) => v.toLowerCase()));
  const needle = f.q?.toLowerCase();
  return all
    .filter(
      (o) =>
        (!only || only.has(o.value)) && (!needle || o.label.toLowerCase().includes(needle) || o.value.includes(needle)),
    )
    .slice(f.offset, f.offset + f.limit);
}

let countries: ValueOption[] | undefined;
const LISTS: Record<string, () => ValueOption[]> = {
  country: () =>
    (countries ??= countryCodes()
      .map((code) => ({ label: countryInfo(code).display_name, value: code }))
      .sort((a, b) => a.label.localeCompare(b.label))),
  currency_code: () => currencies().map((c) => ({ label: c.name, value: c.code })),
};

const hasValues = (attributeId: string) => attributeId in TABLES || attributeId in LISTS;

async function optionsOf(ctx: Ctx, attributeId: string, f: OptionFilter): Promise<ValueOption[]> {
  const list = LISTS[attributeId];
  if (list) return listOptions(list(), f);
  return tableOptions(executor(ctx), TABLES[attributeId], f);
}

/** `GET /admin/promotions/rule-value-options/{rule_type}/{attribute}`: what the attribute's picker offers. */
export async function ruleValues(
  ctx: Ctx,
  ruleType: RuleType,
  attributeId: string,
  kind: PromotionKind,
  f: OptionFilter,
): Promise<ValueOption[]> {
  if (!ruleAttributes(ruleType, kind).some((a) => a.id === attributeId) || !hasValues(attributeId))
    throw errors.invalid('promotion_rule_attribute_invalid', { attribute: attributeId, rule_type: ruleType });
  return optionsOf(ctx, attributeId, f);
}

/** A rule as the editor shows it: the attribute's own fields, then the rule's, labeled. */
export interface LabeledRule extends Omit<RuleAttribute, 'id' | 'value'> {
  id?: string;
  /** The attribute's path (`region.id`); absent on a disguised rule. */
  value?: string;
  attribute: string;
  attribute_label: string;
  operator: string;
  operator_label: string;
  description?: string | null;
  values: ValueOption[] | number | null;
}

/**
 * `GET /admin/promotions/{id}/{rule_type}`: the promotion's rules of that kind in the editor's
 * shape, each value with its label, after the disguised ones (the method's currency when it has
 * one or must, a buy-get's quantities). A rule on an attribute the editor does not offer is left
 * out, as Medusa's is: the editor could not show it. Without a promotion (`id` null: the SDK's
 * `listRules(null, …)` of a promotion being created) the rules a promotion of `kind` starts with.
 */
export async function labeledRules(
  ctx: Ctx,
  id: string | null,
  ruleType: RuleType,
  kind: PromotionKind,
): Promise<LabeledRule[]> {
  const promotion = id === null ? undefined : await getPromotion(ctx, id);
  const method: Partial<PromotionView['application_method']> = promotion?.application_method ?? {};
  const attributes = ruleAttributes(
    ruleType,
    promotion ? { promotion_type: promotion.type, application_method_type: method.type } : kind,
  );
  const out: LabeledRule[] = [];
  const labeled = async (attribute: RuleAttribute, values: string[]) => {
    if (!hasValues(attribute.id) || !values.length) return values.map((v) => ({ label: v, value: v }));
    const found = await optionsOf(ctx, attribute.id, { values, limit: values.length, offset: 0 });
    const labels = new Map(found.map((o) => [o.value, o.label]));
    return values.map((v) => ({ value: v, label: labels.get(v) ?? v }));
  };
  for (const attribute of attributes.filter((a) => a.disguised)) {
    const own = method[attribute.id as 'currency_code' | 'apply_to_quantity' | 'buy_rules_min_quantity'];
    if (!attribute.required && (own === null || own === undefined)) continue;
    const { id: _id, value: _value, ...shape } = attribute;
    out.push({
      ...shape,
      attribute: attribute.id,
      attribute_label: attribute.label,
      operator: 'eq',
      operator_label: OPERATORS.eq.label,
      values:
        attribute.field_type === 'number'
          ? ((own as number | null | undefined) ?? null)
          : own === null || own === undefined
            ? []
            : await labeled(attribute, [String(own)]),
    });
  }
  const stored =
    (ruleType === 'rules' ? promotion?.rules : ruleType === 'target-rules' ? method.target_rules : method.buy_rules) ??
    [];
  for (const rule of stored) {
    const attribute = attributes.find((a) => a.value === rule.attribute && !a.disguised);
    if (!attribute) continue;
    out.push({
      ...attribute,
      id: rule.id,
      attribute: rule.attribute,
      attribute_label: attribute.label,
      operator: rule.operator,
      operator_label: OPERATORS[rule.operator as keyof typeof OPERATORS]?.label ?? rule.operator,
      description: rule.description,
      values: await labeled(
        attribute,
        rule.values.map((v) => v.value),
      ),
    });
  }
  return out;
}
