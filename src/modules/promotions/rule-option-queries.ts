import { type SQL, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';

/** One choice of a rule's value picker: what the admin shows and what the rule stores. */
export interface ValueOption {
  label: string;
  value: string;
}

export interface OptionFilter {
  /** Part of the label or the value, any case. */
  q?: string;
  /** Only these values (what a saved rule holds, to label it). */
  values?: string[];
  limit: number;
  offset: number;
}

/** A live row's label column and id, of another module's table (what a rule's values name). */
export interface OptionTable {
  table:
    | 'regions'
    | 'customer_groups'
    | 'products'
    | 'categories'
    | 'product_collections'
    | 'product_types'
    | 'product_tags';
  label: 'name' | 'title' | 'value';
}

/**
 * Each table written out in SQL rather than passed as an identifier: the module-boundary check
 * (test/module-boundaries.ts) reads these names, and the promotions README lists them.
 */
const FROM: Record<OptionTable['table'], SQL> = {
  regions: sql`from regions t`,
  customer_groups: sql`from customer_groups t`,
  products: sql`from products t`,
  categories: sql`from categories t`,
  product_collections: sql`from product_collections t`,
  product_types: sql`from product_types t`,
  product_tags: sql`from product_tags t`,
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of `{ label, value }` of a table's live rows, by label. */
export async function tableOptions(db: Executor, source: OptionTable, f: OptionFilter): Promise<ValueOption[]> {
  const label = sql.identifier(source.label);
  const needle = f.q ? `%${escapeLike(f.q.toLowerCase())}%` : null;
  return rows<ValueOption>(
    db,
    sql`select t.${label} as label, t.id as value ${FROM[source.table]}
      where t.deleted_at is null
        ${needle ? sql`and (lower(t.${label}) like ${needle} or lower(t.id) like ${needle})` : sql``}
        ${f.values ? sql`and t.id = any(${sql.param(f.values)}::text[])` : sql``}
      order by t.${label}, t.id
      limit ${f.limit} offset ${f.offset}`,
  );
}
