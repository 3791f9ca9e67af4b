import { Type, type Static } from 'typebox';
import { Metadata, Nullable } from '../../platform/http/schema-types.ts';
import { ProductStatus } from './response-schema.ts';
import { pageQuery } from '../../platform/http/pagination.ts';
import { Money } from '../../platform/money/schema.ts';

const INT4_MAX = 2_147_483_647;
const Id = Type.String({ minLength: 1, maxLength: 200 });
const IdList = Type.Array(Id, { maxItems: 1000 });
const Text = (maxLength = 2000) => Type.String({ maxLength });

// ---- request bodies ----

const PriceInput = Type.Object(
  {
    // Medusa's dashboard sends a price's id back when editing: the currency's price keeps its id anyway.
    id: Type.Optional(Id),
    currency_code: Type.String({ pattern: '^[a-z]{3}$', description: 'lower-case ISO 4217' }),
    amount: Money({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    // Medusa's quantity tiers: the price holds for cart lines of these quantities only.
    min_quantity: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }))),
    max_quantity: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }))),
  },
  { additionalProperties: false },
);

const Dimension = Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1e12 })));
const Code = Type.Optional(Nullable(Text(255)));
/** Shipping and customs attributes (Medusa's), on products and variants. */
const physicalFields = {
  weight: Dimension,
  length: Dimension,
  height: Dimension,
  width: Dimension,
  hs_code: Code,
  mid_code: Code,
  origin_country: Code,
  material: Code,
};

const variantFields = {
  title: Type.String({ minLength: 1, maxLength: 1000 }),
  sku: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  barcode: Code,
  ean: Code,
  upc: Code,
  thumbnail: Type.Optional(Nullable(Text())),
  ...physicalFields,
  manage_inventory: Type.Optional(Type.Boolean()),
  allow_backorder: Type.Optional(Type.Boolean()),
  inventory_quantity: Type.Optional(Type.Integer({ minimum: 0, maximum: INT4_MAX })),
  options: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 1000 }))),
  variant_rank: Type.Optional(Type.Integer({ minimum: 0, maximum: INT4_MAX })),
  metadata: Type.Optional(Metadata),
  prices: Type.Optional(Type.Array(PriceInput, { maxItems: 200 })),
};

const VariantCreate = Type.Object(variantFields, { additionalProperties: false });
/** In an update, an item with `id` changes that variant (only the fields given), one without is created. */
const VariantUpsert = Type.Object(
  { ...variantFields, id: Type.Optional(Id), title: Type.Optional(variantFields.title) },
  { additionalProperties: false },
);

/** `POST /admin/products/{id}/variants` (Medusa's AdminCreateProductVariant). */
export const CreateVariantBody = VariantCreate;
/** `POST /admin/products/{id}/variants/{variant_id}`: only the fields given change (`id` is the path's). */
export const UpdateVariantBody = VariantUpsert;

/** Medusa's AdminBatchProductVariantRequest: creates, updates (with their id) and deletes of one product's variants. */
export const BatchVariantsBody = Type.Object(
  {
    create: Type.Optional(Type.Array(VariantCreate, { maxItems: 1000 })),
    update: Type.Optional(
      Type.Array(Type.Object({ ...VariantUpsert.properties, id: Id }, { additionalProperties: false }), {
        maxItems: 1000,
      }),
    ),
    delete: Type.Optional(IdList),
  },
  { additionalProperties: false },
);

export type CreateVariantInput = Static<typeof VariantCreate>;
export type BatchVariantsInput = Static<typeof BatchVariantsBody>;

const OptionInput = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 255 }),
    values: Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), { minItems: 1, maxItems: 1000 }),
  },
  { additionalProperties: false },
);

const IdRef = Type.Object({ id: Id }, { additionalProperties: false });
/** A gallery image by URL; in an update, `id` keeps an existing image (its variant links stay). */
const ImageInput = Type.Object(
  { id: Type.Optional(Id), url: Type.String({ minLength: 1, maxLength: 2000 }), metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);

const productFields = {
  title: Type.String({ minLength: 1, maxLength: 1000 }),
  subtitle: Type.Optional(Nullable(Text())),
  description: Type.Optional(Nullable(Text(100_000))),
  handle: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  status: Type.Optional(ProductStatus),
  thumbnail: Type.Optional(Nullable(Text())),
  is_giftcard: Type.Optional(Type.Boolean()),
  discountable: Type.Optional(Type.Boolean()),
  collection_id: Type.Optional(Nullable(Id)),
  external_id: Type.Optional(Nullable(Text(255))),
  type_id: Type.Optional(Nullable(Id)),
  shipping_profile_id: Type.Optional(Nullable(Id)),
  ...physicalFields,
  metadata: Type.Optional(Metadata),
  images: Type.Optional(Type.Array(ImageInput, { maxItems: 200 })),
  tags: Type.Optional(Type.Array(IdRef, { maxItems: 1000 })),
  categories: Type.Optional(Type.Array(IdRef, { maxItems: 1000 })),
  sales_channels: Type.Optional(Type.Array(IdRef, { maxItems: 1000 })),
  options: Type.Optional(Type.Array(OptionInput, { maxItems: 50 })),
};

export const CreateProductBody = Type.Object(
  { ...productFields, variants: Type.Optional(Type.Array(VariantCreate, { maxItems: 1000 })) },
  { additionalProperties: false },
);

export const UpdateProductBody = Type.Object(
  {
    ...productFields,
    title: Type.Optional(productFields.title),
    variants: Type.Optional(Type.Array(VariantUpsert, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);

/** Items per `POST /admin/products/batch`, create, update and delete together. */
export const MAX_BATCH_ITEMS = 1000;

/** Medusa's `AdminBatchProductRequest`: the single routes' bodies, an update naming its product. */
export const BatchProductsBody = Type.Object(
  {
    create: Type.Optional(Type.Array(CreateProductBody, { maxItems: MAX_BATCH_ITEMS })),
    update: Type.Optional(
      Type.Array(Type.Object({ ...UpdateProductBody.properties, id: Id }, { additionalProperties: false }), {
        maxItems: MAX_BATCH_ITEMS,
      }),
    ),
    delete: Type.Optional(IdList),
  },
  { additionalProperties: false },
);

export type CreateProductInput = Static<typeof CreateProductBody>;
export type UpdateProductInput = Static<typeof UpdateProductBody>;
export type BatchProductsInput = Static<typeof BatchProductsBody>;
export type VariantInput = Static<typeof VariantUpsert>;
export type ImagesInput = Static<typeof ImageInput>[];
export type OptionsInput = Static<typeof OptionInput>[];

// ---- queries (arrays also accept one value; the app parses `x[]=` and `x[0]=` with qs) ----

/** Filters of both lists beyond ids and handles (Medusa's names). */
const catalogFilters = {
  tag_id: Type.Optional(IdList),
  type_id: Type.Optional(IdList),
  is_giftcard: Type.Optional(Type.Boolean()),
};

export const AdminListQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Text(500)),
  id: Type.Optional(IdList),
  status: Type.Optional(Type.Array(ProductStatus, { maxItems: 4 })),
  handle: Type.Optional(Type.Array(Text(255), { maxItems: 1000 })),
  category_id: Type.Optional(IdList),
  collection_id: Type.Optional(IdList),
  sales_channel_id: Type.Optional(IdList),
  count: Type.Optional(
    Type.Boolean({
      description:
        'false: skip counting the matches (`count` is null); page with limit + 1 to learn whether a next page exists',
    }),
  ),
  ...catalogFilters,
});

/**
 * `category_id` also matches the categories below those named (active, public ones only).
 * `fields` is checked (store-fields.ts) but the answer always carries every relation;
 * `order` and `cart_id` are accepted for SDK compatibility and ignored; `country_code` (and
 * `province`) with `region_id` add the amounts with and without tax (store-tax-prices.ts).
 */
export const StoreListQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Text(500)),
  id: Type.Optional(IdList),
  handle: Type.Optional(Type.Array(Text(255), { maxItems: 1000 })),
  region_id: Type.Optional(Id),
  sales_channel_id: Type.Optional(IdList),
  collection_id: Type.Optional(IdList),
  category_id: Type.Optional(IdList),
  ...catalogFilters,
  fields: Type.Optional(Text()),
  order: Type.Optional(Text(100)),
  country_code: Type.Optional(Text(10)),
  province: Type.Optional(Text(100)),
  cart_id: Type.Optional(Id),
});

export const StoreGetQuery = Type.Object({
  region_id: Type.Optional(Id),
  sales_channel_id: Type.Optional(IdList),
  fields: Type.Optional(Text()),
  country_code: Type.Optional(Text(10)),
  province: Type.Optional(Text(100)),
  cart_id: Type.Optional(Id),
});

/** Medusa's AdminProductVariantParams; `fields` is accepted and the answer is always whole. */
const variantListFields = {
  ...pageQuery(50),
  q: Type.Optional(Text(500)),
  id: Type.Optional(IdList),
  sku: Type.Optional(Type.Array(Text(255), { maxItems: 1000 })),
  ean: Type.Optional(Type.Array(Text(255), { maxItems: 1000 })),
  upc: Type.Optional(Type.Array(Text(255), { maxItems: 1000 })),
  barcode: Type.Optional(Type.Array(Text(255), { maxItems: 1000 })),
  manage_inventory: Type.Optional(Type.Boolean()),
  allow_backorder: Type.Optional(Type.Boolean()),
  order: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'title, sku, variant_rank, created_at, updated_at or id; `-` first for descending',
    }),
  ),
  fields: Type.Optional(Text()),
};
export const VariantListQuery = Type.Object(variantListFields);
/** `GET /admin/product-variants`: every product's variants, narrowed by `product_id` if given. */
export const AllVariantsQuery = Type.Object({ ...variantListFields, product_id: Type.Optional(IdList) });
export const FieldsQuery = Type.Object({ fields: Type.Optional(Text()) });

export type VariantListFilters = Static<typeof AllVariantsQuery>;
export type AdminListFilters = Static<typeof AdminListQuery>;
export type StoreListFilters = Static<typeof StoreListQuery>;

export * from './response-schema.ts';
