import { type Static, Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';

const id = Type.String({ minLength: 1, maxLength: 200 });
const quantity = Type.Integer({ minimum: 1, maximum: 2147483647 });
const text = (max = 255) => Nullable(Type.String({ maxLength: max }));

export const Reservation = Type.Object({
  id: Type.String(),
  inventory_item_id: Type.String(),
  location_id: Type.String(),
  line_item_id: Nullable(Type.String()),
  quantity: Type.Integer(),
  allow_backorder: Type.Boolean(),
  description: Nullable(Type.String()),
  external_id: Nullable(Type.String()),
  created_by: Nullable(Type.String()),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ReservationEnvelope = Type.Object({ reservation: Reservation });
export const ReservationList = listEnvelope('reservations', Reservation);

export const CreateReservationBody = Type.Object(
  {
    inventory_item_id: id,
    location_id: id,
    quantity,
    line_item_id: Type.Optional(text(200)),
    allow_backorder: Type.Optional(Type.Boolean()),
    description: Type.Optional(text(2000)),
    external_id: Type.Optional(text()),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateReservationInput = Static<typeof CreateReservationBody>;

export const UpdateReservationBody = Type.Object(
  {
    location_id: Type.Optional(id),
    quantity: Type.Optional(quantity),
    description: Type.Optional(text(2000)),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type UpdateReservationInput = Static<typeof UpdateReservationBody>;

const textList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 });

export const ReservationQuery = Type.Object({
  ...pageQuery(20),
  location_id: Type.Optional(textList),
  inventory_item_id: Type.Optional(textList),
  line_item_id: Type.Optional(textList),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});
