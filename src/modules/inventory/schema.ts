import { type Static, Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';

const INT4_MAX = 2147483647;
const text = (max = 255) => Nullable(Type.String({ maxLength: max }));
const measure = Nullable(Type.Number({ minimum: 0, maximum: 1e9 }));
const quantity = Type.Integer({ minimum: 0, maximum: INT4_MAX });
const id = Type.String({ minLength: 1, maxLength: 200 });

export const InventoryLevel = Type.Object({
  id: Type.String(),
  inventory_item_id: Type.String(),
  location_id: Type.String(),
  stocked_quantity: Type.Integer(),
  reserved_quantity: Type.Integer(),
  incoming_quantity: Type.Integer(),
  available_quantity: Type.Integer(),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const InventoryItem = Type.Object({
  id: Type.String(),
  sku: Nullable(Type.String()),
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  thumbnail: Nullable(Type.String()),
  origin_country: Nullable(Type.String()),
  hs_code: Nullable(Type.String()),
  mid_code: Nullable(Type.String()),
  material: Nullable(Type.String()),
  weight: Nullable(Type.Number()),
  length: Nullable(Type.Number()),
  height: Nullable(Type.Number()),
  width: Nullable(Type.Number()),
  requires_shipping: Type.Boolean(),
  metadata: Metadata,
  stocked_quantity: Type.Integer(),
  reserved_quantity: Type.Integer(),
  location_levels: Type.Array(InventoryLevel),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const InventoryItemEnvelope = Type.Object({ inventory_item: InventoryItem });
export const InventoryItemList = listEnvelope('inventory_items', InventoryItem);
export const InventoryLevelList = listEnvelope('inventory_levels', InventoryLevel);

const itemFields = {
  sku: Type.Optional(text()),
  title: Type.Optional(text()),
  description: Type.Optional(text(5000)),
  thumbnail: Type.Optional(text(2000)),
  origin_country: Type.Optional(text(2)),
  hs_code: Type.Optional(text()),
  mid_code: Type.Optional(text()),
  material: Type.Optional(text()),
  weight: Type.Optional(measure),
  length: Type.Optional(measure),
  height: Type.Optional(measure),
  width: Type.Optional(measure),
  requires_shipping: Type.Optional(Type.Boolean()),
  metadata: Type.Optional(Metadata),
};

export const CreateLevelBody = Type.Object(
  { location_id: id, stocked_quantity: Type.Optional(quantity), incoming_quantity: Type.Optional(quantity) },
  { additionalProperties: false },
);
export type CreateLevelInput = Static<typeof CreateLevelBody>;

export const UpdateLevelBody = Type.Object(
  { stocked_quantity: Type.Optional(quantity), incoming_quantity: Type.Optional(quantity) },
  { additionalProperties: false },
);
export type UpdateLevelInput = Static<typeof UpdateLevelBody>;

export const CreateInventoryItemBody = Type.Object(
  { ...itemFields, location_levels: Type.Optional(Type.Array(CreateLevelBody, { maxItems: 100 })) },
  { additionalProperties: false },
);
export type CreateItemInput = Static<typeof CreateInventoryItemBody>;

export const UpdateInventoryItemBody = Type.Object(itemFields, { additionalProperties: false });
export type UpdateItemInput = Static<typeof UpdateInventoryItemBody>;

const textList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 });

export const InventoryItemQuery = Type.Object({
  ...pageQuery(20),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'matches sku, title or description' })),
  id: Type.Optional(textList),
  sku: Type.Optional(textList),
  requires_shipping: Type.Optional(Type.Boolean()),
  location_levels: Type.Optional(Type.Object({ location_id: Type.Optional(textList) })),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const LevelQuery = Type.Object({
  ...pageQuery(50),
  location_id: Type.Optional(textList),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const LevelParams = Type.Object({ id, location_id: id });

/** Levels to create, update (by location) and delete (location ids), as Medusa's batch takes them. */
export const BatchLevelsBody = Type.Object(
  {
    create: Type.Optional(Type.Array(CreateLevelBody, { maxItems: 1000 })),
    update: Type.Optional(
      Type.Array(
        Type.Object(
          {
            location_id: id,
            stocked_quantity: Type.Optional(quantity),
            incoming_quantity: Type.Optional(quantity),
          },
          { additionalProperties: false },
        ),
        { maxItems: 1000 },
      ),
    ),
    delete: Type.Optional(Type.Array(id, { maxItems: 1000 })),
    force: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type BatchLevelsInput = Static<typeof BatchLevelsBody>;

export const BatchLevelsResult = Type.Object({
  created: Type.Array(InventoryLevel),
  updated: Type.Array(InventoryLevel),
  deleted: Type.Array(Type.String()),
});

const variantLink = {
  variant_id: id,
  inventory_item_id: id,
  required_quantity: Type.Integer({ minimum: 1, maximum: 100000 }),
};

export const BatchVariantItemsBody = Type.Object(
  {
    create: Type.Optional(Type.Array(Type.Object(variantLink, { additionalProperties: false }), { maxItems: 1000 })),
    update: Type.Optional(Type.Array(Type.Object(variantLink, { additionalProperties: false }), { maxItems: 1000 })),
    delete: Type.Optional(
      Type.Array(Type.Object({ variant_id: id, inventory_item_id: id }, { additionalProperties: false }), {
        maxItems: 1000,
      }),
    ),
  },
  { additionalProperties: false },
);
export type BatchVariantItemsInput = Static<typeof BatchVariantItemsBody>;

const VariantLink = Type.Object({
  id: Type.String(),
  variant_id: Type.String(),
  inventory_item_id: Type.String(),
  required_quantity: Type.Integer(),
});

export const BatchVariantItemsResult = Type.Object({
  created: Type.Array(VariantLink),
  updated: Type.Array(VariantLink),
  deleted: Type.Array(Type.Object({ variant_id: Type.String(), inventory_item_id: Type.String() })),
});

const levelOfItem = {
  inventory_item_id: id,
  location_id: id,
  stocked_quantity: Type.Optional(quantity),
  incoming_quantity: Type.Optional(quantity),
};

/** Levels of several items at once; `delete` names level ids. */
export const BatchItemsLevelsBody = Type.Object(
  {
    create: Type.Optional(Type.Array(Type.Object(levelOfItem, { additionalProperties: false }), { maxItems: 1000 })),
    update: Type.Optional(
      Type.Array(Type.Object({ ...levelOfItem, id: Type.Optional(id) }, { additionalProperties: false }), {
        maxItems: 1000,
      }),
    ),
    delete: Type.Optional(Type.Array(id, { maxItems: 1000 })),
    force: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type BatchItemsLevelsInput = Static<typeof BatchItemsLevelsBody>;
