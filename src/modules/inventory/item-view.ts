import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { findLiveItem, type ItemRow, type LevelRow, levelsOfItems } from './queries.ts';

/** An item as the API shows it: its fields, its totals over locations, and every level. */

export const itemNotFound = (id: string) => errors.notFound('inventory_item_not_found', { id });

export const levelView = (l: LevelRow) => ({ ...l, available_quantity: l.stocked_quantity - l.reserved_quantity });

function itemView(item: ItemRow, levels: LevelRow[]) {
  const { deleted_at: _d, ...rest } = item;
  return {
    ...rest,
    stocked_quantity: levels.reduce((n, l) => n + l.stocked_quantity, 0),
    reserved_quantity: levels.reduce((n, l) => n + l.reserved_quantity, 0),
    location_levels: levels.map(levelView),
  };
}
export type ItemView = ReturnType<typeof itemView>;

export async function withLevels(db: Executor, items: ItemRow[]): Promise<ItemView[]> {
  const levels = await levelsOfItems(
    db,
    items.map((i) => i.id),
  );
  return items.map((i) =>
    itemView(
      i,
      levels.filter((l) => l.inventory_item_id === i.id),
    ),
  );
}

export async function getItem(db: Executor, id: string): Promise<ItemView> {
  const item = await findLiveItem(db, id);
  if (!item) throw itemNotFound(id);
  const [view] = await withLevels(db, [item]);
  return view;
}
