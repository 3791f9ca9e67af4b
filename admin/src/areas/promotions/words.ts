import { money, toMinor } from '../../lib/format.ts';

/**
 * Promotion rules as the operator reads and writes them: which cart facts a rule can look at,
 * a rule in plain words ("Customer group is VIP", "Item total is at least €50.00"), and the
 * conversion between the form's draft and the API's `{ attribute, operator, values }`. Pure, so
 * the words are tested without a browser.
 */

/** Where a rule's values come from: a list of the shop's things, free text, or an amount of money. */
export type Source =
  | 'groups'
  | 'regions'
  | 'collections'
  | 'categories'
  | 'types'
  | 'tags'
  | 'products'
  | 'shipping_options'
  | 'text'
  | 'amount';

export type Operator = 'eq' | 'ne' | 'in' | 'gt' | 'gte' | 'lt' | 'lte';

export interface AttributeDef {
  attribute: string;
  label: string;
  source: Source;
}

/** What a promotion's conditions look at: the cart, its customer and what is in it. */
export const CART_ATTRIBUTES: AttributeDef[] = [
  { attribute: 'customer.groups.id', label: 'Customer group', source: 'groups' },
  { attribute: 'region_id', label: 'Region', source: 'regions' },
  { attribute: 'currency_code', label: 'Currency', source: 'text' },
  { attribute: 'shipping_address.country_code', label: 'Shipping country', source: 'text' },
  { attribute: 'item_total', label: 'Item total', source: 'amount' },
  { attribute: 'items.product.id', label: 'Product in the cart', source: 'products' },
  { attribute: 'items.product.collection_id', label: 'Collection in the cart', source: 'collections' },
  { attribute: 'items.product.categories.id', label: 'Category in the cart', source: 'categories' },
  { attribute: 'items.product.type_id', label: 'Product type in the cart', source: 'types' },
  { attribute: 'items.product.tags.id', label: 'Tag in the cart', source: 'tags' },
];

/** What target and buy rules on items look at: the line's product. */
export const ITEM_ATTRIBUTES: AttributeDef[] = [
  { attribute: 'items.product.id', label: 'Product', source: 'products' },
  { attribute: 'items.product.collection_id', label: 'Collection', source: 'collections' },
  { attribute: 'items.product.categories.id', label: 'Category', source: 'categories' },
  { attribute: 'items.product.type_id', label: 'Product type', source: 'types' },
  { attribute: 'items.product.tags.id', label: 'Tag', source: 'tags' },
];

/** What target rules on shipping methods look at. */
export const SHIPPING_ATTRIBUTES: AttributeDef[] = [
  { attribute: 'shipping_methods.shipping_option_id', label: 'Shipping option', source: 'shipping_options' },
];

const ALL = [...CART_ATTRIBUTES, ...ITEM_ATTRIBUTES, ...SHIPPING_ATTRIBUTES];

/** The operators offered for a kind of value, in the order the form lists them. */
export function operatorsFor(source: Source): Operator[] {
  if (source === 'amount') return ['gte', 'gt', 'lte', 'lt', 'eq'];
  return ['in', 'ne'];
}

export const OPERATOR_WORDS: Record<Operator, string> = {
  in: 'is',
  eq: 'is exactly',
  ne: 'is not',
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
};

/** A rule in the form: list values picked by id, or the text typed (amounts in major units). */
export interface DraftRule {
  attribute: string;
  operator: Operator;
  values: string[];
  text: string;
}

/** A rule as the API answers it (values as objects) or takes it (strings). */
export interface ApiRule {
  attribute: string;
  operator: string;
  values: string | string[] | { value: string }[];
}

export const defOf = (attribute: string, defs: AttributeDef[] = ALL): AttributeDef =>
  defs.find((d) => d.attribute === attribute) ??
  ALL.find((d) => d.attribute === attribute) ?? { attribute, label: attribute, source: 'text' };

const valuesOf = (r: ApiRule): string[] =>
  (Array.isArray(r.values) ? r.values : [r.values]).map((v) => (typeof v === 'string' ? v : v.value));

/** The minor-unit digits of a currency (2 for EUR, 0 for JPY). */
export function digitsOf(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

export function emptyRule(def: AttributeDef): DraftRule {
  return { attribute: def.attribute, operator: operatorsFor(def.source)[0], values: [], text: '' };
}

/** The API's rule as the form edits it; an amount (minor units) shows in the currency's units. */
export function draftOf(rule: ApiRule, currency: string): DraftRule {
  const source = defOf(rule.attribute).source;
  const values = valuesOf(rule);
  const operator = rule.operator as Operator;
  if (source === 'amount')
    return {
      attribute: rule.attribute,
      operator,
      values: [],
      text: (Number(values[0]) / 10 ** digitsOf(currency)).toFixed(digitsOf(currency)),
    };
  if (source === 'text') return { attribute: rule.attribute, operator, values: [], text: values.join(', ') };
  return { attribute: rule.attribute, operator, values, text: '' };
}

/** The form's rule for the API, or a message saying what is missing. */
export function ruleBody(
  d: DraftRule,
  currency: string,
  defs: AttributeDef[] = CART_ATTRIBUTES,
): { attribute: string; operator: Operator; values: string[] } | { error: string } {
  const def = defOf(d.attribute, defs);
  let values: string[];
  if (def.source === 'amount') {
    const minor = toMinor(d.text, currency);
    if (minor === null) return { error: `${def.label}: an amount, e.g. 50.00` };
    values = [String(minor)];
  } else if (def.source === 'text') {
    values = d.text
      .split(/[\s,]+/)
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);
  } else values = d.values;
  if (!values.length) return { error: `${def.label}: pick at least one value` };
  return { attribute: d.attribute, operator: d.operator, values };
}

/** Names of the shop's things by id (customer groups, collections, …), for the words. */
export type Labels = Record<string, string>;

function listed(values: string[], or: boolean): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} ${or ? 'or' : 'and'} ${values[values.length - 1]}`;
}

export interface WordsOptions {
  /** The attributes the rule is one of (a cart condition or a rule on a line: `items.product.id` is both). */
  defs?: AttributeDef[];
  /** Inside a sentence the label starts in lower case. */
  inSentence?: boolean;
}

/** "Customer group is VIP or Wholesale", "Item total is at least €50.00", "Tag is not clearance". */
export function ruleText(rule: ApiRule, labels: Labels, currency: string | null, opts: WordsOptions = {}): string {
  const def = defOf(rule.attribute, opts.defs ?? CART_ATTRIBUTES);
  const values = valuesOf(rule);
  const shown =
    def.source === 'amount'
      ? values.map((v) => money(Number(v), currency))
      : def.source === 'text'
        ? values.map((v) => v.toUpperCase())
        : values.map((v) => labels[v] ?? v);
  const op = rule.operator as Operator;
  // "is not A, B" would read as if one of them were enough to refuse: it means none of them.
  const words = op === 'ne' && values.length > 1 ? 'is none of' : (OPERATOR_WORDS[op] ?? rule.operator);
  const label = opts.inSentence ? def.label[0].toLowerCase() + def.label.slice(1) : def.label;
  return `${label} ${words} ${listed(shown, op !== 'ne')}`;
}

/** Rules joined as the engine reads them: all must hold. */
export const rulesText = (rules: ApiRule[], labels: Labels, currency: string | null, opts: WordsOptions = {}) =>
  rules.map((r) => ruleText(r, labels, currency, opts)).join(' and ');

export interface MethodLike {
  type: string;
  value: number;
  currency_code: string | null;
  target_type: string;
  allocation: string | null;
  max_quantity?: number | null;
  apply_to_quantity?: number | null;
  buy_rules_min_quantity?: number | null;
  target_rules?: ApiRule[];
  buy_rules?: ApiRule[];
}

const TARGET: Record<string, string> = { items: 'items', shipping_methods: 'shipping', order: 'the order' };

const amountText = (m: MethodLike) => (m.type === 'percentage' ? `${m.value} %` : money(m.value, m.currency_code));
const splitText = (m: MethodLike) =>
  m.target_type === 'order' || !m.allocation ? '' : m.allocation === 'each' ? ', each' : ', spread across';

/** "10 % off items, each" / "€5.00 off the order" in plain words. */
export function valueText(m: MethodLike): string {
  return `${amountText(m)} off ${TARGET[m.target_type] ?? m.target_type}${splitText(m)}`;
}

const units = (n: number | null | undefined, one: string) => `${n ?? 0} ${one}${n === 1 ? '' : 's'}`;
const where = (rules: ApiRule[] | undefined, labels: Labels, currency: string | null) =>
  rules?.length
    ? ` where ${rulesText(rules, labels, currency, { defs: [...ITEM_ATTRIBUTES, ...SHIPPING_ATTRIBUTES], inSentence: true })}`
    : '';

/** The currency amounts of a promotion are in: its method's, else the one its rules ask for. */
export function currencyOfPromotion(p: { application_method: MethodLike; rules: ApiRule[] }): string | null {
  const rule = p.rules.find((r) => r.attribute === 'currency_code');
  return p.application_method.currency_code ?? (rule ? (valuesOf(rule)[0] ?? null) : null);
}

/**
 * The whole promotion in a sentence: what it gives, on what, and when.
 * "Buy 2 items where product is Shirt, get 1 item where collection is Summer at 100 % off."
 */
export function promotionText(
  p: { type: string; application_method: MethodLike; rules: ApiRule[] },
  labels: Labels,
): string {
  const m = p.application_method;
  const currency = currencyOfPromotion(p);
  let what: string;
  if (p.type === 'buyget') {
    const buy = `Buy ${units(m.buy_rules_min_quantity, 'item')}${where(m.buy_rules, labels, currency)}`;
    const get = `get ${units(m.apply_to_quantity, 'item')}${where(m.target_rules, labels, currency)}`;
    what = `${buy}, ${get} at ${amountText(m)} off`;
  } else {
    const target = TARGET[m.target_type] ?? m.target_type;
    what = `${amountText(m)} off ${target}${where(m.target_rules, labels, currency)}${splitText(m)}`;
    if (m.allocation === 'each' && m.target_type === 'items' && m.max_quantity)
      what += `, up to ${units(m.max_quantity, 'unit')} a line`;
  }
  const when = p.rules.length ? `, when ${rulesText(p.rules, labels, currency, { inSentence: true })}` : '';
  return `${what}${when}.`;
}

/** A source whose values are ids of the shop's things (not text, not an amount). */
export type ListSource = Exclude<Source, 'text' | 'amount'>;

/**
 * The ids the rules point at, by the list they come from (sorted, once each): what the panel
 * reads names for, so the words never depend on how many things the shop has.
 */
export function idsBySource(rules: ApiRule[]): Partial<Record<ListSource, string[]>> {
  const found: Partial<Record<ListSource, Set<string>>> = {};
  for (const r of rules) {
    const source = defOf(r.attribute).source;
    if (source === 'text' || source === 'amount') continue;
    const ids = found[source] ?? new Set<string>();
    for (const v of valuesOf(r)) ids.add(v);
    found[source] = ids;
  }
  return Object.fromEntries(Object.entries(found).map(([s, ids]) => [s, [...ids].sort()]));
}

/** Every rule of a promotion: its conditions, its target rules and its buy rules. */
export const allRulesOf = (p: {
  rules?: ApiRule[] | null;
  application_method?: { target_rules?: ApiRule[] | null; buy_rules?: ApiRule[] | null } | null;
}): ApiRule[] => [
  ...(p.rules ?? []),
  ...(p.application_method?.target_rules ?? []),
  ...(p.application_method?.buy_rules ?? []),
];
