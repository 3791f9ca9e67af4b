import { Type, type Static } from 'typebox';
import { Metadata } from '../../platform/http/schema-types.ts';
import { Money } from '../../platform/money/schema.ts';
import { OrderChangeEnvelope } from '../orders/changes/schema.ts';
import { PreviewField } from '../orders/changes/schema-preview.ts';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Note = Type.String({ maxLength: 2000 });
const Quantity = Type.Integer({ minimum: 0, maximum: 1_000_000 });

export const CreateOrderEditBody = Type.Object(
  {
    order_id: Id,
    description: Type.Optional(Note),
    internal_note: Type.Optional(Note),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const AddItemsBody = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          variant_id: Id,
          quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
          unit_price: Type.Optional(Money({ minimum: 0 })),
          compare_at_unit_price: Type.Optional(Money({ minimum: 0 })),
          internal_note: Type.Optional(Note),
          allow_backorder: Type.Optional(Type.Boolean()),
          metadata: Type.Optional(Metadata),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 200 },
    ),
  },
  { additionalProperties: false },
);

export const UpdateItemBody = Type.Object(
  {
    quantity: Quantity,
    unit_price: Type.Optional(Money({ minimum: 0 })),
    compare_at_unit_price: Type.Optional(Money({ minimum: 0 })),
    internal_note: Type.Optional(Note),
  },
  { additionalProperties: false },
);

export const ItemParams = Type.Object({ id: Id, item_id: Id });
export const ActionParams = Type.Object({ id: Id, action_id: Id });
export { OrderChangeEnvelope };
export const PreviewEnvelope = Type.Object(PreviewField);

export type AddItemsInput = Static<typeof AddItemsBody>;
export type UpdateItemInput = Static<typeof UpdateItemBody>;
