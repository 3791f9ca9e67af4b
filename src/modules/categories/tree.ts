import type { ProductSummaryJson } from '../products/store-service.ts';
import type { CategoryRow } from './queries.ts';

/** Shapes categories as Medusa answers them, in memory, from the rows of one query. */

export type CategoryView = Omit<CategoryRow, 'is_active' | 'is_internal'> & {
  is_active?: boolean;
  is_internal?: boolean;
  parent_category?: CategoryView | null;
  category_children?: CategoryView[];
};

/** A category answered at the top of a response: parent and children always present. */
export type TopCategoryView = CategoryView & {
  parent_category: CategoryView | null;
  category_children: CategoryView[];
  products?: ProductSummaryJson[];
};

export interface TreeOptions {
  /** The admin sees is_active and is_internal; the store does not. */
  admin: boolean;
  /** Children to every depth (`include_descendants_tree`); otherwise one level. */
  descendants: boolean;
  /** Parents up to the root (`include_ancestors_tree`, or `fields` naming parent_category.parent_category). */
  ancestors: boolean;
}

export class CategoryTree {
  private readonly byId: Map<string, CategoryRow>;
  private readonly children = new Map<string | null, CategoryRow[]>();

  /** `rows` sorted by rank then id; a row whose parent is not among them has no visible parent. */
  constructor(
    readonly rows: CategoryRow[],
    private readonly opts: TreeOptions,
  ) {
    this.byId = new Map(rows.map((r) => [r.id, r]));
    for (const r of rows) {
      const key = r.parent_category_id;
      const list = this.children.get(key) ?? [];
      list.push(r);
      this.children.set(key, list);
    }
  }

  get(id: string): CategoryRow | undefined {
    return this.byId.get(id);
  }

  /** The ids of `ids` and of all their descendants (for the product filter `category_id[]`). */
  withDescendants(ids: string[]): string[] {
    const out = new Set<string>();
    const walk = (id: string) => {
      if (out.has(id) || !this.byId.has(id)) return;
      out.add(id);
      for (const c of this.children.get(id) ?? []) walk(c.id);
    };
    for (const id of ids) walk(id);
    return [...out];
  }

  /** Whether `candidate` is `id` or lies below it (a category cannot move under itself). */
  isSelfOrDescendant(id: string, candidate: string): boolean {
    return this.withDescendants([id]).includes(candidate);
  }

  private columns(r: CategoryRow): CategoryView {
    const { is_active, is_internal, ...rest } = r;
    return this.opts.admin ? { ...rest, is_active, is_internal } : rest;
  }

  private parentOf(r: CategoryRow, deep: boolean): CategoryView | null {
    const parent = r.parent_category_id ? this.byId.get(r.parent_category_id) : undefined;
    if (!parent) return null;
    return {
      ...this.columns(parent),
      parent_category: deep ? this.parentOf(parent, true) : null,
      category_children: [],
    };
  }

  private childrenOf(r: CategoryRow, deep: boolean): CategoryView[] {
    return (this.children.get(r.id) ?? []).map((c) => ({
      ...this.columns(c),
      parent_category: null,
      category_children: deep ? this.childrenOf(c, true) : [],
    }));
  }

  /**
   * One category with its parent and children, as deep as the options say. Medusa's types
   * require `parent_category` and `category_children` on nested categories too: there they are
   * null and [] beyond the depth asked for (a nested child's parent is the category around it).
   */
  view(r: CategoryRow): TopCategoryView {
    return {
      ...this.columns(r),
      parent_category: this.parentOf(r, this.opts.ancestors),
      category_children: this.childrenOf(r, this.opts.descendants),
    };
  }
}
