import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { variantInventoryItems } from '../inventory/tables.ts';
import { productVariants } from '../products/tables.ts';
import { stockLocations as sl } from '../stock-locations/tables.ts';

const l = tableAs(variantInventoryItems, 'l');
const v = tableAs(productVariants, 'v');

/** Live stock locations by name: the inventory export's per-location columns. */
export async function locationsByName(db: Executor): Promise<{ id: string; name: string }[]> {
  return rows(
    db,
    sql`select ${sl.id}, ${sl.name} from ${sl} where ${sl.deleted_at} is null order by ${sl.name}, ${sl.id}`,
  );
}

export interface ExportVariant {
  inventory_item_id: string;
  id: string;
  title: string;
  barcode: string | null;
  ean: string | null;
  upc: string | null;
}

/** The live variants selling each item (its links), for the inventory export's rows. */
export async function variantsOfItems(db: Executor, itemIds: string[]): Promise<ExportVariant[]> {
  if (!itemIds.length) return [];
  return rows(
    db,
    sql`select ${l.inventory_item_id}, ${v.id}, ${v.title}, ${v.barcode}, ${v.ean}, ${v.upc}
      from ${from(l)} join ${from(v)} on ${v.id} = ${l.variant_id}
      where ${l.inventory_item_id} = any(${sql.param(itemIds)}::text[]) and ${v.deleted_at} is null
      order by ${l.inventory_item_id}, ${v.created_at}, ${v.id}`,
  );
}
