import { type Column, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { rows, type Executor } from '../../platform/db/database.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { categories } from '../categories/tables.ts';
import { productCollections } from '../collections/tables.ts';
import { customerGroups } from '../customer-groups/tables.ts';
import { productTags, productTypes } from '../product-labels/tables.ts';
import { products } from '../products/tables.ts';
import { regions } from '../regions/tables.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';

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
  table: keyof typeof SOURCES;
}

interface Source {
  from: SQL;
  id: Column;
  label: Column;
  deletedAt: Column;
}

/** A table (made by tableAs) read through its drizzle columns: a renamed column fails the type check here. */
function source<T extends PgTable & { id: Column; deleted_at: Column }>(t: T, label: (t: T) => Column): Source {
  return { from: from(t), id: t.id, label: label(t), deletedAt: t.deleted_at };
}

const SOURCES = {
  regions: source(tableAs(regions, 't'), (t) => t.name),
  customer_groups: source(tableAs(customerGroups, 't'), (t) => t.name),
  products: source(tableAs(products, 't'), (t) => t.title),
  categories: source(tableAs(categories, 't'), (t) => t.name),
  product_collections: source(tableAs(productCollections, 't'), (t) => t.title),
  product_types: source(tableAs(productTypes, 't'), (t) => t.value),
  product_tags: source(tableAs(productTags, 't'), (t) => t.value),
};

/** A page of `{ label, value }` of a table's live rows, by label. */
export async function tableOptions(db: Executor, option: OptionTable, f: OptionFilter): Promise<ValueOption[]> {
  const { from: table, id, label, deletedAt } = SOURCES[option.table];
  const needle = f.q ? containsPattern(f.q.toLowerCase()) : null;
  return rows<ValueOption>(
    db,
    sql`select ${label} as label, ${id} as value from ${table}
      where ${deletedAt} is null
        ${needle ? sql`and (lower(${label}) like ${needle} or lower(${id}) like ${needle})` : sql``}
        ${f.values ? sql`and ${id} = any(${sql.param(f.values)}::text[])` : sql``}
      order by ${label}, ${id}
      limit ${f.limit} offset ${f.offset}`,
  );
}
