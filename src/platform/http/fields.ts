import { errors } from './errors.ts';

/**
 * Medusa's `fields` query: a comma list of `name`, `+name`, `-name` or `*relation`, where
 * names may be dotted paths (`*variants.calculated_price`, `+variants.inventory_quantity`).
 * We answer with a fixed, complete shape, so `fields` only tells which optional relations to
 * add; a field we do not know is ignored (never an error), a malformed expression is a 400.
 */
const TOKEN = /^[+\-*]?[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_*][A-Za-z0-9_]*)*$/;

export interface Fields {
  /** Relation roots asked for, with or without a prefix: `*products` and `products.id` both give `products`. */
  relations: Set<string>;
  /** Full dotted paths asked for, without prefixes. */
  paths: Set<string>;
}

export function parseFields(expression: string | undefined): Fields {
  const relations = new Set<string>();
  const paths = new Set<string>();
  for (const raw of (expression ?? '').split(',')) {
    const token = raw.trim();
    if (!token) continue;
    if (!TOKEN.test(token)) throw errors.invalid('invalid_field_selection', { token: token.slice(0, 100) });
    if (token.startsWith('-')) continue;
    const path = token.replace(/^[+*]/, '');
    paths.add(path);
    const [root, ...rest] = path.split('.');
    if (token.startsWith('*') || rest.length) relations.add(root);
  }
  return { relations, paths };
}
