import { Type, type Static } from 'typebox';
import { pageQuery } from '../../platform/http/pagination.ts';
import { Metadata } from '../../platform/http/schema-types.ts';

/** Bodies and queries of the option routes (option.routes.ts), in Medusa 2.21's names. */

const Id = Type.String({ minLength: 1, maxLength: 200 });
const IdList = Type.Array(Id, { maxItems: 1000 });
const Title = Type.String({ minLength: 1, maxLength: 255 });
const Value = Type.String({ minLength: 1, maxLength: 1000 });
const Values = Type.Array(Value, { minItems: 1, maxItems: 1000 });
const Ranks = Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: 1_000_000 }), {
  description: '{ <value>: <rank> }: the values’ order',
});
// Accepted for Medusa's clients; an option here always belongs to one product.
const IsExclusive = Type.Optional(Type.Boolean({ description: 'accepted; options belong to one product here' }));

const OptionCreate = Type.Object(
  { title: Title, values: Values, ranks: Type.Optional(Ranks), is_exclusive: IsExclusive },
  { additionalProperties: false },
);

export const OptionCreateBody = Type.Object(
  {
    ...OptionCreate.properties,
    product_id: Type.Optional(Id),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, description: '`product_id` is required here: the product the option belongs to' },
);

export const OptionUpdateBody = Type.Object(
  {
    id: Type.Optional(Id),
    title: Type.Optional(Title),
    values: Type.Optional(Values),
    ranks: Type.Optional(Ranks),
    is_exclusive: IsExclusive,
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const OptionValueUpdateBody = Type.Object(
  { value: Type.Optional(Value), metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);

/** Medusa's AdminLinkProductOptions. */
export const LinkOptionsBody = Type.Object(
  {
    add: Type.Optional(
      Type.Array(
        Type.Union([Id, OptionCreate, Type.Object({ id: Id, value_ids: IdList }, { additionalProperties: false })]),
        { maxItems: 50 },
      ),
    ),
    remove: Type.Optional(IdList),
    update: Type.Optional(
      Type.Array(
        Type.Object(
          {
            product_option_id: Id,
            add: Type.Optional(
              Type.Array(Type.Union([Value, Type.Object({ value: Value }, { additionalProperties: false })]), {
                maxItems: 1000,
              }),
            ),
            remove: Type.Optional(IdList),
          },
          { additionalProperties: false },
        ),
        { maxItems: 50 },
      ),
    ),
  },
  { additionalProperties: false },
);

const hints = {
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
};

export const OptionListQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 500 })),
  id: Type.Optional(IdList),
  title: Type.Optional(Type.Array(Title, { maxItems: 100 })),
  product_id: Type.Optional(IdList),
  ...hints,
});

export const OptionValueListQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 500 })),
  id: Type.Optional(IdList),
  value: Type.Optional(Type.Array(Value, { maxItems: 1000 })),
  option_id: Type.Optional(IdList),
  ...hints,
});

export const FieldsOnly = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });

export type OptionCreateInput = Static<typeof OptionCreateBody>;
export type OptionUpdateInput = Static<typeof OptionUpdateBody>;
export type LinkOptionsInput = Static<typeof LinkOptionsBody>;
export type OptionListInput = Static<typeof OptionListQuery>;
