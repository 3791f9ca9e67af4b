import { isMoneySchema } from './schema.ts';

/** Where the money fields of a schema are: keys of this object, and plans of nested objects and arrays. */
export interface MoneyPlan {
  money: string[];
  props: [string, MoneyPlan][];
  items: MoneyPlan | null;
}

type Node = Record<string, unknown>;

function merge(into: MoneyPlan, from: MoneyPlan | null): void {
  if (!from) return;
  for (const k of from.money) if (!into.money.includes(k)) into.money.push(k);
  for (const [k, p] of from.props) {
    const mine = into.props.find(([key]) => key === k);
    if (mine) merge(mine[1], p);
    else into.props.push([k, p]);
  }
  if (from.items) {
    if (!into.items) into.items = { money: [], props: [], items: null };
    merge(into.items, from.items);
  }
}

/** The plan of a JSON schema, or null when it holds no money (the common case: nothing to walk). */
export function compilePlan(schema: unknown, depth = 0): MoneyPlan | null {
  if (typeof schema !== 'object' || schema === null || depth > 32) return null;
  const s = schema as Node;
  const plan: MoneyPlan = { money: [], props: [], items: null };
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const sub of (s[key] as unknown[] | undefined) ?? []) merge(plan, compilePlan(sub, depth + 1));
  }
  for (const [k, p] of Object.entries((s.properties as Record<string, unknown> | undefined) ?? {})) {
    if (isMoneySchema(p)) plan.money.push(k);
    else {
      const nested = compilePlan(p, depth + 1);
      if (nested) plan.props.push([k, nested]);
    }
  }
  if (s.items && !Array.isArray(s.items)) plan.items = compilePlan(s.items, depth + 1);
  return plan.money.length || plan.props.length || plan.items ? plan : null;
}

/**
 * Applies `convert(amount, currency, path)` to every money field of `value`, returning new objects
 * along the converted paths (services' objects may be cached, so they are never mutated). The
 * currency is the nearest enclosing `currency_code`, else `fallback`; `path` reads like
 * `variants.0.prices.1.amount` for error messages.
 */
export function mapMoney(
  value: unknown,
  plan: MoneyPlan,
  fallback: string | undefined,
  convert: (amount: number, currency: string | undefined, path: string) => number,
  path = '',
): unknown {
  const at = (k: string | number) => (path ? `${path}.${k}` : String(k));
  if (Array.isArray(value)) {
    return plan.items ? value.map((v, i) => mapMoney(v, plan.items!, fallback, convert, at(i))) : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Node;
  const out: Node = { ...source };
  const currency = typeof source.currency_code === 'string' ? source.currency_code : fallback;
  for (const k of plan.money) if (typeof out[k] === 'number') out[k] = convert(out[k] as number, currency, at(k));
  for (const [k, p] of plan.props) if (k in out) out[k] = mapMoney(out[k], p, currency, convert, at(k));
  return out;
}

/** Every path of a money field that has no `currency_code` on itself or an enclosing object (a schema defect). */
export function moneyWithoutCurrency(schema: unknown, path = '', hasCurrency = false, depth = 0): string[] {
  if (typeof schema !== 'object' || schema === null || depth > 32) return [];
  const s = schema as Node;
  const props = (s.properties as Record<string, unknown> | undefined) ?? {};
  const here = hasCurrency || 'currency_code' in props;
  const found: string[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const sub of (s[key] as unknown[] | undefined) ?? [])
      found.push(...moneyWithoutCurrency(sub, path, here, depth + 1));
  }
  for (const [k, p] of Object.entries(props)) {
    if (isMoneySchema(p)) {
      if (!here) found.push(`${path}.${k}`);
    } else found.push(...moneyWithoutCurrency(p, `${path}.${k}`, here, depth + 1));
  }
  if (s.items && !Array.isArray(s.items)) found.push(...moneyWithoutCurrency(s.items, `${path}[]`, here, depth + 1));
  return found;
}
