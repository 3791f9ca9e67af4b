import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

export const Notification = Type.Object({
  id: Type.String(),
  type: Type.String(),
  title: Type.String(),
  message: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
  read_at: NullableTimestamp,
  created_at: Timestamp,
});

export const NotificationEnvelope = Type.Object({ notification: Notification });
export const NotificationList = listEnvelope('notifications', Notification);

export const NotificationQuery = Type.Object({
  ...pageQuery(50),
  read: Type.Optional(Type.Boolean({ description: 'false: unread only; true: read only; absent: all, unread first' })),
  // A single `type=` value is coerced to a one-element array by the validator; commas also split.
  type: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 })),
});

// The actions take no fields; `{}` (what Medusa's SDK sends) or no body at all.
export const EmptyBody = Type.Object({}, { additionalProperties: false });

export const ReadAllResponse = Type.Object({
  updated: Type.Integer({ description: 'how many unread notifications were marked read' }),
});
