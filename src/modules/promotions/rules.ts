/**
 * Promotion rules as Medusa evaluates them: an attribute path read from the cart (`region.id`,
 * `items.product.collection_id`, `shipping_address.country_code`), an operator and values. A path
 * through an array collects every element's value, and every collected value must match, so
 * "items.product.collection_id in [summer]" holds when every line is from that collection.
 */

export interface Rule {
  attribute: string;
  operator: 'eq' | 'ne' | 'in' | 'gt' | 'gte' | 'lt' | 'lte';
  values: string[];
}

/** A value at a dotted path; arrays on the way are mapped and flattened. Undefined when absent. */
export function pick(path: string, object: unknown): unknown {
  const segments = path.split('.');
  let result: unknown = object;
  for (let i = 0; i < segments.length; i++) {
    if (result == null || typeof result !== 'object') return undefined;
    result = (result as Record<string, unknown>)[segments[i]];
    if (result == null) return undefined;
    if (i === segments.length - 1) return result;
    if (Array.isArray(result)) {
      const rest = segments.slice(i + 1).join('.');
      return result.flatMap((item) => pick(rest, item) as unknown[]);
    }
  }
  return result;
}

// The comparisons read "a rule value compared with the cart's", as Medusa's do.
const compare: Record<Rule['operator'], (ruleValue: string, actual: string) => boolean> = {
  eq: (r, a) => r === a,
  in: (r, a) => r === a,
  ne: (r, a) => r !== a,
  gt: (r, a) => r > a,
  gte: (r, a) => r >= a,
  lt: (r, a) => r < a,
  lte: (r, a) => r <= a,
};

export function ruleHolds(rule: Rule, context: unknown, scope: 'order' | 'items' | 'shipping_methods'): boolean {
  // Target rules are written from the cart (`items.product.id`) but evaluated on one line.
  const path = scope === 'order' ? rule.attribute : rule.attribute.replace(`${scope}.`, '');
  const found = pick(path, context);
  const actual = Array.isArray(found) ? found : [found];
  return actual.every((a) => rule.values.some((r) => compare[rule.operator](r, String(a))));
}

export const rulesHold = (rules: Rule[], context: unknown, scope: 'order' | 'items' | 'shipping_methods') =>
  rules.every((r) => ruleHolds(r, context, scope));
