import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable } from '../../platform/http/schema-types.ts';
import { AdminCategory, StoreCategory } from '../products/response-schema.ts';

const Text = (maxLength: number) => Type.String({ maxLength });
const TextList = Type.Array(Text(255), { maxItems: 1000 });
const INT4_MAX = 2_147_483_647;

const fields = {
  name: Type.String({ minLength: 1, maxLength: 1000 }),
  description: Text(10_000),
  handle: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\s/?#]+$' }),
  is_active: Type.Boolean(),
  is_internal: Type.Boolean(),
  parent_category_id: Nullable(Type.String({ minLength: 1, maxLength: 200 })),
  rank: Type.Integer({ minimum: 0, maximum: INT4_MAX }),
  external_id: Nullable(Text(255)),
  metadata: Metadata,
};

const optional = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)])) as {
  [K in keyof typeof fields]: ReturnType<typeof Type.Optional<(typeof fields)[K]>>;
};

export const CreateCategoryBody = Type.Object({ ...optional, name: fields.name }, { additionalProperties: false });
export const UpdateCategoryBody = Type.Object(optional, { additionalProperties: false });

const treeQuery = {
  include_descendants_tree: Type.Optional(Type.Boolean()),
  include_ancestors_tree: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Text(2000)),
};

/** `parent_category_id=null` lists the roots. `order` is accepted and ignored (rank order). */
export const StoreCategoryQuery = Type.Object({
  ...pageQuery(50),
  ...treeQuery,
  q: Type.Optional(Text(500)),
  id: Type.Optional(TextList),
  handle: Type.Optional(TextList),
  name: Type.Optional(TextList),
  parent_category_id: Type.Optional(TextList),
  order: Type.Optional(Text(100)),
});

export const AdminCategoryQuery = Type.Object({
  ...StoreCategoryQuery.properties,
  is_active: Type.Optional(Type.Boolean()),
  is_internal: Type.Optional(Type.Boolean()),
});

export const CategoryGetQuery = Type.Object(treeQuery);

export const AdminCategoryEnvelope = Type.Object({ product_category: AdminCategory });
export const AdminCategoryList = listEnvelope('product_categories', AdminCategory);
export const StoreCategoryEnvelope = Type.Object({ product_category: StoreCategory });
export const StoreCategoryList = listEnvelope('product_categories', StoreCategory);
