import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

export const NotificationDelivery = Type.Object({
  id: Type.String(),
  channel: Type.String(),
  to: Type.String(),
  template: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
  status: Type.String({ description: 'pending | sent | dead | not_sent (no provider was installed)' }),
  attempts: Type.Integer(),
  next_attempt_at: NullableTimestamp,
  provider_id: Nullable(Type.String()),
  provider_message_id: Nullable(Type.String()),
  error: Nullable(Type.String()),
  resource_type: Nullable(Type.String()),
  resource_id: Nullable(Type.String()),
  sent_at: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});

const list = Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 });
export const DeliveryQuery = Type.Object({
  ...pageQuery(50),
  status: Type.Optional(list),
  template: Type.Optional(list),
  to: Type.Optional(Type.String({ maxLength: 320 })),
  resource_id: Type.Optional(Type.String({ maxLength: 200 })),
});

export const DeliveryList = listEnvelope('notification_deliveries', NotificationDelivery);
export const DeliveryEnvelope = Type.Object({ notification_delivery: NotificationDelivery });

export const TemplateInfo = Type.Object({
  name: Type.String(),
  channel: Type.String(),
  description: Type.String(),
  sample_data: Type.Record(Type.String(), Type.Unknown()),
});
export const TemplateList = Type.Object({ notification_templates: Type.Array(TemplateInfo) });

export const PreviewBody = Type.Object(
  { data: Type.Optional(Type.Record(Type.String(), Type.Unknown())) },
  { additionalProperties: false },
);
export const TemplateParams = Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) });
export const PreviewEnvelope = Type.Object({
  preview: Type.Object({ subject: Type.String(), text: Type.String(), html: Type.String() }),
});

export const ProviderList = Type.Object({
  notification_providers: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String(), channels: Type.Array(Type.String()), plugin: Type.String() }),
  ),
  /** Channels the shop's templates use that no running provider sends on: those messages are not sent. */
  channels_without_provider: Type.Array(Type.String()),
});
