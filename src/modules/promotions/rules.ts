/**
 * Promotion rules as Medusa 2.21 evaluates them: an attribute path read from the cart (`region.id`,
 * `items.product.collection_id`, `customer.groups.id`), an operator and values. A path through an
 * array collects every element's value: `in` holds when one of them is among the rule's values,
 * `eq` and the comparisons when all of them match, `ne` when none does; nothing collected holds
 * only for `ne`.
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

// The cart's value compared with the rule's, numerically when both are numbers ("item_total gte 50").
function order(actual: string, ruleValue: string): number {
  const a = Number(actual);
  const r = Number(ruleValue);
  if (actual !== '' && ruleValue !== '' && Number.isFinite(a) && Number.isFinite(r)) return Math.sign(a - r);
  return actual < ruleValue ? -1 : actual > ruleValue ? 1 : 0;
}
const compare: Record<Rule['operator'], (actual: string, ruleValue: string) => boolean> = {
  eq: (a, r) => a === r,
  in: (a, r) => a === r,
  ne: (a, r) => a !== r,
  gt: (a, r) => order(a, r) > 0,
  gte: (a, r) => order(a, r) >= 0,
  lt: (a, r) => order(a, r) < 0,
  lte: (a, r) => order(a, r) <= 0,
};

export function ruleHolds(rule: Rule, context: unknown, scope: 'order' | 'items' | 'shipping_methods'): boolean {
  // Target rules are written from the cart (`items.product.id`) but evaluated on one line.
  const path = scope === 'order' ? rule.attribute : rule.attribute.replace(`${scope}.`, '');
  const found = pick(path, context);
  const actual = Array.isArray(found) ? found : [found];
  if (rule.operator === 'ne') return actual.every((a) => rule.values.every((r) => String(a) !== r));
  if (!actual.length) return false;
  if (rule.operator === 'in') return actual.some((a) => rule.values.includes(String(a)));
  return actual.every((a) => rule.values.some((r) => compare[rule.operator](String(a), r)));
}

export const rulesHold = (rules: Rule[], context: unknown, scope: 'order' | 'items' | 'shipping_methods') =>
  rules.every((r) => ruleHolds(r, context, scope));
