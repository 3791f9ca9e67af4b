import { Type, type Static } from 'typebox';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Money } from '../../platform/money/schema.ts';

const INT4_MAX = 2_147_483_647;
const Id = Type.String({ minLength: 1, maxLength: 200 });
const IdList = Type.Array(Id, { maxItems: 1000 });
const Text = (maxLength = 2000) => Type.String({ maxLength });

export const ProductStatus = Type.Union([
  Type.Literal('draft'),
  Type.Literal('proposed'),
  Type.Literal('published'),
  Type.Literal('rejected'),
]);

// ---- request bodies ----

const PriceInput = Type.Object(
  {
    currency_code: Type.String({ pattern: '^[a-z]{3}$', description: 'lower-case ISO 4217' }),
    amount: Money({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  },
  { additionalProperties: false },
);

const variantFields = {
  title: Type.String({ minLength: 1, maxLength: 1000 }),
  sku: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
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

const OptionInput = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 255 }),
    values: Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), { minItems: 1, maxItems: 1000 }),
  },
  { additionalProperties: false },
);

const IdRef = Type.Object({ id: Id }, { additionalProperties: false });

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
  metadata: Type.Optional(Metadata),
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

export type CreateProductInput = Static<typeof CreateProductBody>;
export type UpdateProductInput = Static<typeof UpdateProductBody>;
export type VariantInput = Static<typeof VariantUpsert>;
export type OptionsInput = Static<typeof OptionInput>[];

// ---- queries (arrays also accept one value; the app parses `x[]=` and `x[0]=` with qs) ----

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
});

/** `fields`, `order`, `country_code` and `cart_id` are accepted for SDK compatibility and ignored. */
export const StoreListQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Text(500)),
  id: Type.Optional(IdList),
  handle: Type.Optional(Type.Array(Text(255), { maxItems: 1000 })),
  region_id: Type.Optional(Id),
  sales_channel_id: Type.Optional(IdList),
  fields: Type.Optional(Text()),
  order: Type.Optional(Text(100)),
  country_code: Type.Optional(Text(10)),
  cart_id: Type.Optional(Id),
});

export const StoreGetQuery = Type.Object({
  region_id: Type.Optional(Id),
  sales_channel_id: Type.Optional(IdList),
  fields: Type.Optional(Text()),
  country_code: Type.Optional(Text(10)),
  cart_id: Type.Optional(Id),
});

export type AdminListFilters = Static<typeof AdminListQuery>;
export type StoreListFilters = Static<typeof StoreListQuery>;

// ---- responses ----

export const Price = Type.Object({
  id: Type.String(),
  currency_code: Type.String(),
  amount: Money(),
  variant_id: Type.String(),
});

const PriceRef = Type.Object({
  id: Type.String(),
  price_list_id: Type.Null(),
  price_list_type: Type.Null(),
  min_quantity: Type.Null(),
  max_quantity: Type.Null(),
});
const RawAmount = Type.Object({ value: Type.String(), precision: Type.Integer() });

/** Medusa's calculated price for the region's currency; without price lists, calculated = original. */
export const CalculatedPrice = Type.Object({
  id: Type.String(),
  calculated_amount: Money(),
  original_amount: Money(),
  currency_code: Type.String(),
  is_calculated_price_price_list: Type.Boolean(),
  is_calculated_price_tax_inclusive: Type.Boolean(),
  is_original_price_price_list: Type.Boolean(),
  is_original_price_tax_inclusive: Type.Boolean(),
  raw_calculated_amount: RawAmount,
  raw_original_amount: RawAmount,
  calculated_price: PriceRef,
  original_price: PriceRef,
});

/** Medusa's variant option shape (storefronts key a variant's options by `option_id`). */
const VariantOption = Type.Object({
  value: Type.String(),
  option_id: Type.String(),
  option: Type.Object({ id: Type.String(), title: Type.String() }),
});

export const Variant = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  title: Type.String(),
  sku: Nullable(Type.String()),
  manage_inventory: Type.Boolean(),
  allow_backorder: Type.Boolean(),
  inventory_quantity: Type.Integer(),
  options: Type.Array(VariantOption),
  variant_rank: Type.Integer(),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
  prices: Type.Array(Price),
  calculated_price: Type.Optional(Nullable(CalculatedPrice)),
});

export const ProductOption = Type.Object({
  id: Type.String(),
  title: Type.String(),
  values: Type.Array(Type.Object({ value: Type.String(), option_id: Type.String() })),
});

const productShape = {
  id: Type.String(),
  title: Type.String(),
  subtitle: Nullable(Type.String()),
  handle: Type.String(),
  description: Nullable(Type.String()),
  status: ProductStatus,
  thumbnail: Nullable(Type.String()),
  is_giftcard: Type.Boolean(),
  discountable: Type.Boolean(),
  collection_id: Nullable(Type.String()),
  type_id: Nullable(Type.String()),
  external_id: Nullable(Type.String()),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
  options: Type.Array(ProductOption),
  variants: Type.Array(Variant),
};

export const Product = Type.Object({
  ...productShape,
  sales_channels: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  categories: Type.Array(Type.Object({ id: Type.String() })),
});

/**
 * The store omits sales channels and category links, as Medusa's default store fields do: they
 * are the merchant's setup, and leaving them out keeps the hot list lean.
 */
export const StoreProduct = Type.Object(productShape);

export const ProductResponse = Type.Object({ product: Product });
export const ProductList = listEnvelope('products', Product);
/** The admin list: `count` is null when the caller asked for no count (`count=false`). */
export const AdminProductList = Type.Object({
  products: Type.Array(Product),
  count: Nullable(Type.Integer()),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export const StoreProductResponse = Type.Object({ product: StoreProduct });
export const StoreProductList = listEnvelope('products', StoreProduct);
