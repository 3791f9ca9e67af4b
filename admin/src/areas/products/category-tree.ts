export interface Category {
  id: string;
  name: string;
  parent_category_id: string | null;
  is_active: boolean;
  is_internal: boolean;
}

/** Categories in tree order, each with its depth, from the flat list the API gives. */
export function treeOrder(list: Category[]): { category: Category; depth: number }[] {
  const known = new Set(list.map((c) => c.id));
  const children = new Map<string | null, Category[]>();
  for (const c of list) {
    // A parent outside the page read is treated as a root, so no category goes missing.
    const parent = c.parent_category_id && known.has(c.parent_category_id) ? c.parent_category_id : null;
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
  const out: { category: Category; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const c of children.get(parent) ?? []) {
      out.push({ category: c, depth });
      walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}
