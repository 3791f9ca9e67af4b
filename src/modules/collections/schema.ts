import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable } from '../../platform/http/schema-types.ts';
import { Collection, ProductSummary } from '../products/response-schema.ts';

const Text = (maxLength: number) => Type.String({ maxLength });
const TextList = Type.Array(Text(255), { maxItems: 1000 });

const fields = {
  title: Type.String({ minLength: 1, maxLength: 1000 }),
  handle: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\s/?#]+$' }),
  external_id: Nullable(Text(255)),
  metadata: Metadata,
};

export const CreateCollectionBody = Type.Object(
  {
    title: fields.title,
    handle: Type.Optional(fields.handle),
    external_id: Type.Optional(fields.external_id),
    metadata: Type.Optional(fields.metadata),
  },
  { additionalProperties: false },
);

export const UpdateCollectionBody = Type.Object(
  {
    title: Type.Optional(fields.title),
    handle: Type.Optional(fields.handle),
    external_id: Type.Optional(fields.external_id),
    metadata: Type.Optional(fields.metadata),
  },
  { additionalProperties: false },
);

/** `fields` selects relations (`*products`); `order` is accepted for the SDK and ignored (creation order). */
export const CollectionQuery = Type.Object({
  ...pageQuery(10),
  q: Type.Optional(Text(500)),
  id: Type.Optional(TextList),
  handle: Type.Optional(TextList),
  title: Type.Optional(TextList),
  fields: Type.Optional(Text(2000)),
  order: Type.Optional(Text(100)),
});

export const CollectionGetQuery = Type.Object({ fields: Type.Optional(Text(2000)) });

export const CollectionWithProducts = Type.Object({
  ...Collection.properties,
  products: Type.Optional(Type.Array(ProductSummary)),
});

export const CollectionEnvelope = Type.Object({ collection: CollectionWithProducts });
export const CollectionList = listEnvelope('collections', CollectionWithProducts);
