import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { NullableTimestamp, Nullable, Timestamp } from '../../platform/http/schema-types.ts';

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'http or https URL the deliveries are POSTed to',
});
const Events = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  description: 'event names (`order.placed`), group patterns (`order.*`) or `*`',
});

export const CreateWebhookBody = Type.Object(
  {
    url: Url,
    events: Events,
    signing_secret: Type.Optional(
      Type.String({
        minLength: 8,
        maxLength: 512,
        description: 'HMAC key of X-Service-Signature; generated (`whsec_…`) when absent',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateWebhookBody = Type.Object(
  { url: Type.Optional(Url), events: Type.Optional(Events), active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

const webhookFields = {
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Webhook = Type.Object(webhookFields);
export const WebhookEnvelope = Type.Object({ webhook: Webhook });
export const CreatedWebhookEnvelope = Type.Object({
  webhook: Type.Object({
    ...webhookFields,
    signing_secret: Type.String({ description: 'returned only here, never again' }),
  }),
});
export const WebhookList = listEnvelope('webhooks', Webhook);
export const WebhookListQuery = Type.Object(pageQuery(20));

export const DeliveryStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('retrying'),
  Type.Literal('succeeded'),
  Type.Literal('dead'),
]);

const deliveryFields = {
  id: Type.String({ description: 'sent as X-Service-Delivery-Id, the same on every retry' }),
  event: Type.String(),
  status: DeliveryStatus,
  attempt_count: Type.Integer(),
  next_attempt_at: NullableTimestamp,
  last_status_code: Nullable(Type.Integer()),
  created_at: Timestamp,
};

export const Delivery = Type.Object(deliveryFields);
export const DeliveryList = listEnvelope('deliveries', Delivery);
export const DeliveryListQuery = Type.Object({
  ...pageQuery(20),
  status: Type.Optional(Type.Union([DeliveryStatus, Type.Array(DeliveryStatus, { maxItems: 4 })])),
});

const Attempt = Type.Object({
  attempted_at: Timestamp,
  status_code: Nullable(Type.Integer()),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
  response_body: Nullable(Type.String({ description: 'the first 1 KiB of the answer' })),
});

export const DeliveryDetailEnvelope = Type.Object({
  delivery: Type.Object({
    ...deliveryFields,
    payload: Type.Unknown({ description: 'the body that was signed and sent' }),
    attempts: Type.Array(Attempt),
  }),
});
export const DeliveryEnvelope = Type.Object({ delivery: Delivery });

export const DeliveryParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  delivery_id: Type.String({ minLength: 1, maxLength: 200 }),
});

export const ReplayResult = Type.Object({ replayed: Type.Integer() });
