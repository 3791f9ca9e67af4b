import { errors } from './errors.ts';

/**
 * Medusa's `fields` query: a comma list of `name`, `+name`, `-name` or `*relation`, where
 * names may be dotted paths (`*variants.calculated_price`, `+variants.inventory_quantity`) and
 * `relation.*` is the same as `*relation`. As Medusa reads it (its get-query-config.ts):
 * - when every item is prefixed (`+`, `-`, `*`, a space, which is how a `+` arrives unencoded
 *   in a URL) or ends in `.*`, the items change the default selection: `+`/`*` add, `-` removes;
 * - as soon as one item is a plain name, the list replaces the default selection: only what is
 *   named is answered (prefixes dropped, `-` included, as Medusa does), plus `id` at every level.
 * Our default selection already carries every relation a storefront reads, so adding is free; a
 * field we do not know is ignored (never an error), a malformed expression is a 400.
 */
const TOKEN = /^[+\-*]?[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_*][A-Za-z0-9_]*)*$/;

/** What a projection keeps of an object: everything (`all`), or the named keys (and `id`). */
export interface FieldTree {
  all: boolean;
  children: Map<string, FieldTree>;
}

/**
 * The answer's shape: the default one unchanged (`null`), the default one less some paths
 * (`remove`), or only the named paths (`only`).
 */
export type Selection = { kind: 'remove'; paths: string[] } | { kind: 'only'; tree: FieldTree } | null;

export interface Fields {
  /** Relation roots asked for, with or without a prefix: `*products` and `products.id` both give `products`. */
  relations: Set<string>;
  /** Full dotted paths asked for, without prefixes. */
  paths: Set<string>;
  /** The shape asked for, beyond relations: see `Selection`. */
  selection: Selection;
  /** A stable text of `selection` (empty for the default shape), for cache keys. */
  signature: string;
}

const additive = (raw: string) => /^[+\- *]/.test(raw) || raw.endsWith('.*');

export function parseFields(expression: string | undefined): Fields {
  const relations = new Set<string>();
  const paths = new Set<string>();
  const removed: string[] = [];
  const named: { path: string; star: boolean }[] = [];
  let replace = false;
  for (const raw of (expression ?? '').split(',')) {
    const token = raw.trim();
    if (!token) continue;
    if (!TOKEN.test(token)) throw errors.invalid('invalid_field_selection', { token: token.slice(0, 100) });
    if (!additive(raw)) replace = true;
    const star = token.startsWith('*') || token.endsWith('.*');
    const path = token.replace(/^[+\-*]/, '').replace(/\.\*$/, '');
    named.push({ path, star });
    if (token.startsWith('-')) {
      removed.push(path);
      continue;
    }
    paths.add(path);
    const [root, ...rest] = path.split('.');
    if (star || rest.length) relations.add(root);
  }
  if (replace) {
    for (const { path } of named) if (path.includes('.')) relations.add(path.split('.')[0]);
    const tree = treeOf(named);
    return { relations, paths, selection: { kind: 'only', tree }, signature: `only:${signatureOf(tree)}` };
  }
  if (removed.length) {
    const sorted = [...new Set(removed)].sort();
    return { relations, paths, selection: { kind: 'remove', paths: sorted }, signature: `remove:${sorted.join(',')}` };
  }
  return { relations, paths, selection: null, signature: '' };
}

const node = (): FieldTree => ({ all: false, children: new Map() });

function treeOf(named: { path: string; star: boolean }[]): FieldTree {
  const root = node();
  for (const { path, star } of named) {
    let at = root;
    for (const part of path.split('.')) {
      let next = at.children.get(part);
      if (!next) {
        next = node();
        at.children.set(part, next);
      }
      at = next;
    }
    // A plain name is a column, or a whole relation when it names one; a star is the whole relation.
    if (star || at.children.size === 0) at.all = true;
  }
  return root;
}

function signatureOf(tree: FieldTree): string {
  if (tree.all && tree.children.size === 0) return '*';
  const keys = [...tree.children.keys()].sort();
  return `${tree.all ? '*' : ''}{${keys.map((k) => `${k}${signatureOf(tree.children.get(k)!)}`).join(',')}}`;
}

type Json = unknown;

/** `value` cut down to `tree`: objects keep `id` and the named keys (each cut down in turn), arrays each item. */
export function project(value: Json, tree: FieldTree): Json {
  if (Array.isArray(value)) return value.map((item) => project(item, tree));
  if (value === null || typeof value !== 'object') return value;
  const source = value as Record<string, Json>;
  if (tree.all && tree.children.size === 0) return value;
  if (tree.all) {
    const out: Record<string, Json> = { ...source };
    for (const [key, child] of tree.children) if (key in source) out[key] = project(source[key], child);
    return out;
  }
  const out: Record<string, Json> = {};
  if ('id' in source) out.id = source.id;
  for (const [key, child] of tree.children) if (key in source) out[key] = project(source[key], child);
  return out;
}

/** `value` without the dotted `paths` (through arrays). */
export function without(value: Json, paths: string[]): Json {
  let out = value;
  for (const path of paths) out = drop(out, path.split('.'));
  return out;
}

function drop(value: Json, parts: string[]): Json {
  if (Array.isArray(value)) return value.map((item) => drop(item, parts));
  if (value === null || typeof value !== 'object') return value;
  const [head, ...rest] = parts;
  const source = value as Record<string, Json>;
  if (!(head in source)) return value;
  const { [head]: inner, ...others } = source;
  return rest.length ? { ...others, [head]: drop(inner, rest) } : others;
}

/** One resource (or a list's items) shaped by `selection`. */
export function shape(value: Json, selection: Selection): Json {
  if (!selection) return value;
  return selection.kind === 'only' ? project(value, selection.tree) : without(value, selection.paths);
}

/**
 * A response envelope (`{ product }`, `{ products, count, limit, offset }`) with its resources
 * shaped by `selection`: each object or array of objects at the top level is a resource; numbers
 * and strings beside them (count, limit, offset) stay as they are.
 */
export function shapeEnvelope(body: Record<string, Json>, selection: Selection): Record<string, Json> {
  if (!selection) return body;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(body))
    out[key] = value !== null && typeof value === 'object' ? shape(value, selection) : value;
  return out;
}
