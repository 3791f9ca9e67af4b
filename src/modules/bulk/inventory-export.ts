import type { Ctx } from '../../platform/context.ts';
import type { JobHandler } from '../../platform/jobs/runner.ts';
import type { ItemView } from '../inventory/item-view.ts';
import type { ItemFilters } from '../inventory/queries.ts';
import { listItems } from '../inventory/service.ts';
import { cellText, EXPORT_PAGE, exportPages, type Row } from './desk-export.ts';
import { type ExportVariant, locationsByName, variantsOfItems } from './queries.ts';

export const INVENTORY_EXPORT = 'inventory_item_export';

/**
 * Medusa's inventory export (`POST /admin/inventory-items/export`): one row per variant selling an
 * item (one for an item no variant sells), its fields as "Item …" columns, the variant's barcodes,
 * and three columns per stock location by name: stocked, reserved and available there (empty
 * where the item has no level).
 */

const ITEM_COLUMNS = [
  'Item Id',
  'Item Sku',
  'Item Title',
  'Item Description',
  'Item Thumbnail',
  'Item Origin Country',
  'Item Hs Code',
  'Item Mid Code',
  'Item Material',
  'Item Weight',
  'Item Length',
  'Item Height',
  'Item Width',
  'Item Requires Shipping',
  'Item Stocked Quantity',
  'Item Reserved Quantity',
  'Item Created At',
  'Item Updated At',
];
const VARIANT_COLUMNS = ['Variant Id', 'Variant Title', 'Variant Barcode', 'Variant Ean', 'Variant Upc'];
const LEVEL_FIELDS = [
  ['stocked_quantity', 'Stocked Quantity'],
  ['reserved_quantity', 'Reserved Quantity'],
  ['available_quantity', 'Available Quantity'],
] as const;

const columnOf = (location: { name: string }, label: string) => `Location [${location.name}] ${label}`;
const stamp = (v: unknown) => (v instanceof Date ? v.toISOString() : cellText(v));

function itemRows(item: ItemView, variants: ExportVariant[], locations: { id: string; name: string }[]): Row[] {
  const fields: Row = {};
  for (const column of ITEM_COLUMNS) {
    const key = column.slice('Item '.length).toLowerCase().replaceAll(' ', '_') as keyof ItemView;
    fields[column] = typeof item[key] === 'boolean' ? (item[key] ? 'TRUE' : 'FALSE') : stamp(item[key]);
  }
  const levels = new Map(item.location_levels.map((l) => [l.location_id, l]));
  for (const location of locations)
    for (const [field, label] of LEVEL_FIELDS)
      fields[columnOf(location, label)] = levels.get(location.id)?.[field] ?? '';
  const sold: (ExportVariant | null)[] = variants.length ? variants : [null];
  return sold.map((v) => ({
    ...fields,
    'Variant Id': v?.id ?? '',
    'Variant Title': v?.title ?? '',
    'Variant Barcode': v?.barcode ?? '',
    'Variant Ean': v?.ean ?? '',
    'Variant Upc': v?.upc ?? '',
  }));
}

export const inventoryExportJob: JobHandler = {
  type: INVENTORY_EXPORT,
  async run(job) {
    const locations = await locationsByName(job.db);
    const columns = [
      ...ITEM_COLUMNS,
      ...VARIANT_COLUMNS,
      ...locations.flatMap((l) => LEVEL_FIELDS.map(([, label]) => columnOf(l, label))),
    ];
    // The list route's filters, as it validated them (InventoryItemQuery).
    const f = (job.job.input.filters ?? {}) as ItemFilters & { location_levels?: { location_id?: string[] } };
    const filters: ItemFilters = {
      q: f.q,
      id: f.id,
      sku: f.sku,
      requires_shipping: f.requires_shipping,
      location_id: f.location_levels?.location_id,
    };
    const variants = new Map<string, ExportVariant[]>();
    return exportPages(
      job,
      'inventory-items',
      columns,
      async (ctx: Ctx, offset) => {
        const { inventory_items, count } = await listItems(ctx, filters, { limit: EXPORT_PAGE, offset });
        variants.clear();
        for (const v of await variantsOfItems(
          ctx.db,
          inventory_items.map((i) => i.id),
        ))
          variants.set(v.inventory_item_id, [...(variants.get(v.inventory_item_id) ?? []), v]);
        return { items: inventory_items, count };
      },
      (item) => itemRows(item, variants.get(item.id) ?? [], locations),
    );
  },
};
