import { type Static, Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Nullable, Timestamp } from '../../platform/http/schema-types.ts';

const Label = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });
const Code = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Description = Type.String({ maxLength: 1000 });
const textList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 });

export const ShippingOptionTypeView = Type.Object({
  id: Type.String(),
  label: Type.String(),
  code: Type.String(),
  description: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: Nullable(Timestamp),
});
export const ShippingOptionTypeEnvelope = Type.Object({ shipping_option_type: ShippingOptionTypeView });
export const ShippingOptionTypeList = listEnvelope('shipping_option_types', ShippingOptionTypeView);

export const CreateShippingOptionTypeBody = Type.Object(
  { label: Label, code: Code, description: Type.Optional(Description) },
  { additionalProperties: false },
);
export const UpdateShippingOptionTypeBody = Type.Object(
  { label: Type.Optional(Label), code: Type.Optional(Code), description: Type.Optional(Description) },
  { additionalProperties: false },
);
export const ShippingOptionTypeQuery = Type.Object({
  ...pageQuery(10),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  id: Type.Optional(textList),
  label: Type.Optional(textList),
  code: Type.Optional(textList),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
});

export type CreateShippingOptionTypeInput = Static<typeof CreateShippingOptionTypeBody>;
export type UpdateShippingOptionTypeInput = Static<typeof UpdateShippingOptionTypeBody>;
