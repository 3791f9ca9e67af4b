import { Type } from 'typebox';
import { listEnvelope } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';
import { Money } from '../../platform/money/schema.ts';

/**
 * Response shapes of product reads (rendered by product-json.ts), shared with collections and
 * categories. The price shapes (`Price`, `CalculatedPrice` and its parts) are also what the SQL
 * (product-json.ts) and the store's text assembly (store-assembly.ts) write: both take their keys
 * and order from here (platform/http/schema-json.ts).
 */

export const ProductStatus = Type.Union([
  Type.Literal('draft'),
  Type.Literal('proposed'),
  Type.Literal('published'),
  Type.Literal('rejected'),
]);

const NullableTimestamp = Nullable(Timestamp);
const stamps = { created_at: Timestamp, updated_at: Timestamp, deleted_at: NullableTimestamp };
const Num = Nullable(Type.Number());
const Str = Nullable(Type.String());
const physical = {
  weight: Num,
  length: Num,
  height: Num,
  width: Num,
  hs_code: Str,
  mid_code: Str,
  origin_country: Str,
  material: Str,
};

export const Price = Type.Object({
  id: Type.String(),
  currency_code: Type.String(),
  amount: Money(),
  variant_id: Type.String(),
  min_quantity: Nullable(Type.Number()),
  max_quantity: Nullable(Type.Number()),
});

export const PriceRef = Type.Object({
  id: Type.String(),
  price_list_id: Nullable(Type.String()),
  price_list_type: Nullable(Type.String()),
  min_quantity: Nullable(Type.Number()),
  max_quantity: Nullable(Type.Number()),
});
export const RawAmount = Type.Object({ value: Type.String(), precision: Type.Integer() });

/** Medusa's calculated price for the region's currency; without price lists, calculated = original. */
export const CalculatedPrice = Type.Object({
  id: Type.String(),
  calculated_amount: Money(),
  original_amount: Money(),
  calculated_amount_with_tax: Money(),
  calculated_amount_without_tax: Money(),
  original_amount_with_tax: Money(),
  original_amount_without_tax: Money(),
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

export const ProductImage = Type.Object({
  id: Type.String(),
  url: Type.String(),
  rank: Type.Integer(),
  metadata: Metadata,
  ...stamps,
});

/** Medusa's variant option shape (storefronts key a variant's options by `option_id`). */
const VariantOption = Type.Object({
  id: Type.String(),
  value: Type.String(),
  option_id: Type.String(),
  option: Type.Object({ id: Type.String(), title: Type.String(), is_exclusive: Type.Boolean() }),
});

export const Variant = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  title: Type.String(),
  sku: Str,
  barcode: Str,
  ean: Str,
  upc: Str,
  thumbnail: Str,
  ...physical,
  manage_inventory: Type.Boolean(),
  allow_backorder: Type.Boolean(),
  inventory_quantity: Type.Integer(),
  options: Type.Array(VariantOption),
  images: Type.Array(ProductImage),
  variant_rank: Type.Integer(),
  metadata: Metadata,
  ...stamps,
  prices: Type.Array(Price),
  calculated_price: Type.Optional(Nullable(CalculatedPrice)),
});

export const ProductOption = Type.Object({
  id: Type.String(),
  title: Type.String(),
  is_exclusive: Type.Boolean(),
  metadata: Metadata,
  values: Type.Array(Type.Object({ id: Type.String(), value: Type.String(), option_id: Type.String() })),
});

export const Collection = Type.Object({
  id: Type.String(),
  title: Type.String(),
  handle: Type.String(),
  external_id: Str,
  metadata: Metadata,
  ...stamps,
});

/** A product type or tag. */
export const Label = Type.Object({ id: Type.String(), value: Type.String(), metadata: Metadata, ...stamps });

const categoryColumns = {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  handle: Type.String(),
  rank: Type.Integer(),
  parent_category_id: Str,
  external_id: Str,
  metadata: Metadata,
  ...stamps,
};
const adminCategoryColumns = { ...categoryColumns, is_active: Type.Boolean(), is_internal: Type.Boolean() };

/**
 * A category: nested parents and children have the same shape (to the depth asked for), so
 * they are described loosely here; the category routes' tests check them.
 */
const categoryShape = (columns: typeof categoryColumns) =>
  Type.Object({
    ...columns,
    parent_category: Type.Union([Type.Object(columns, { additionalProperties: true }), Type.Null()]),
    category_children: Type.Array(Type.Object(columns, { additionalProperties: true })),
    products: Type.Optional(Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: true }))),
  });
export const StoreCategory = categoryShape(categoryColumns);
export const AdminCategory = categoryShape(adminCategoryColumns as typeof categoryColumns);

const productScalars = {
  id: Type.String(),
  title: Type.String(),
  subtitle: Str,
  handle: Type.String(),
  description: Str,
  status: ProductStatus,
  thumbnail: Str,
  is_giftcard: Type.Boolean(),
  discountable: Type.Boolean(),
  collection_id: Str,
  type_id: Str,
  external_id: Str,
  ...physical,
  metadata: Metadata,
  ...stamps,
};

const productShape = {
  ...productScalars,
  options: Type.Array(ProductOption),
  variants: Type.Array(Variant),
  images: Type.Array(ProductImage),
  collection: Nullable(Collection),
  type: Nullable(Label),
  tags: Type.Array(Label),
};

export const Product = Type.Object({
  ...productShape,
  categories: Type.Array(AdminCategory),
  sales_channels: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  /** What shipping it needs (null: the default profile). */
  shipping_profile_id: Type.Optional(Str),
});

/**
 * The store omits sales channels, as Medusa's default store fields do (they are the merchant's
 * setup), and shows only active, public categories.
 */
export const StoreProduct = Type.Object({ ...productShape, categories: Type.Array(StoreCategory) });

/** A product inside a collection or category: its columns and images, variants and options not loaded. */
export const ProductSummary = Type.Object({
  ...productScalars,
  images: Type.Array(ProductImage),
  variants: Type.Null(),
  options: Type.Null(),
});

export const ProductResponse = Type.Object({ product: Product });

/** Medusa's `AdminBatchProductResponse`. */
export const BatchProductsResponse = Type.Object({
  created: Type.Array(Product),
  updated: Type.Array(Product),
  deleted: Type.Object({
    ids: Type.Array(Type.String()),
    object: Type.Literal('product'),
    deleted: Type.Literal(true),
  }),
});

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

// ---- the admin variant and option routes (variant.routes.ts, option.routes.ts) ----

export const VariantResponse = Type.Object({ variant: Variant });
export const VariantList = listEnvelope('variants', Variant);
/** `GET /admin/product-variants`: each variant with its product's own columns (Medusa's `*product`). */
export const VariantWithProductList = listEnvelope(
  'variants',
  Type.Object({ ...Variant.properties, product: Nullable(Type.Object(productScalars)) }),
);
export const VariantDeleted = Type.Object({
  id: Type.String(),
  object: Type.Literal('variant'),
  deleted: Type.Literal(true),
  parent: Product,
});
/** Medusa's `AdminBatchProductVariantResponse`. */
export const BatchVariantsResponse = Type.Object({
  created: Type.Array(Variant),
  updated: Type.Array(Variant),
  deleted: Type.Object({
    ids: Type.Array(Type.String()),
    object: Type.Literal('variant'),
    deleted: Type.Literal(true),
  }),
});

export const OptionValue = Type.Object({
  id: Type.String(),
  value: Type.String(),
  option_id: Type.String(),
  rank: Type.Integer(),
});
/** An option as the option routes show it: the product's, with its `product_id` and its place (`rank`). */
export const AdminOption = Type.Object({
  id: Type.String(),
  title: Type.String(),
  is_exclusive: Type.Boolean(),
  metadata: Metadata,
  product_id: Type.String(),
  rank: Type.Integer(),
  values: Type.Array(OptionValue),
});
export const OptionResponse = Type.Object({ product_option: AdminOption });
export const OptionList = listEnvelope('product_options', AdminOption);
export const OptionDeleted = Type.Object({
  id: Type.String(),
  object: Type.Literal('product_option'),
  deleted: Type.Literal(true),
  parent: Product,
});
export const OptionValueResponse = Type.Object({ product_option_value: OptionValue });
export const OptionValueList = listEnvelope('product_option_values', OptionValue);
export const OptionValueDeleted = Type.Object({
  id: Type.String(),
  object: Type.Literal('product_option_value'),
  deleted: Type.Literal(true),
  parent: AdminOption,
});
