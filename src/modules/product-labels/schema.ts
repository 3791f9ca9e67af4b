import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata } from '../../platform/http/schema-types.ts';
import { Label } from '../products/response-schema.ts';

const Value = Type.String({ minLength: 1, maxLength: 255 });
const TextList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 });

export const CreateLabelBody = Type.Object(
  { value: Value, metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);
export const UpdateLabelBody = Type.Object(
  { value: Type.Optional(Value), metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);

/** `fields` and `order` are accepted for the SDK and ignored (the label is always whole, in creation order). */
export const LabelQuery = Type.Object({
  ...pageQuery(20),
  q: Type.Optional(Type.String({ maxLength: 500 })),
  id: Type.Optional(TextList),
  value: Type.Optional(TextList),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
});

export const labelEnvelope = (key: string) => Type.Object({ [key]: Label });
/** One schema a surface, so that each list answer is typed by its own key. */
export const labelList = (plural: 'product_types' | 'product_tags') =>
  plural === 'product_types' ? listEnvelope('product_types', Label) : listEnvelope('product_tags', Label);
