import { Type, type Static } from 'typebox';
import { Money } from '../../platform/money/schema.ts';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, ShopperJsonObject, Timestamp } from '../../platform/http/schema-types.ts';

/** The only payment provider built in: manual payment, authorized at checkout, captured by the order desk. */
export const SYSTEM_PROVIDER = 'pp_system_default';

export const PaymentSession = Type.Object({
  id: Type.String(),
  payment_collection_id: Type.String(),
  provider_id: Type.String(),
  currency_code: Type.String(),
  amount: Money(),
  status: Type.String({ description: 'pending | authorized | canceled | error' }),
  data: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const PaymentCollection = Type.Object({
  id: Type.String(),
  cart_id: Nullable(Type.String({ description: "the cart's collection; null for an order's difference" })),
  order_id: Type.Optional(
    Nullable(Type.String({ description: 'set on a collection of a difference to pay after the sale' })),
  ),
  currency_code: Type.String(),
  amount: Money({ description: "follows the cart total until checkout; an order's difference after" }),
  status: Type.String({ description: 'not_paid | awaiting | authorized | canceled | …' }),
  payment_sessions: Type.Array(PaymentSession),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const PaymentCollectionEnvelope = Type.Object({ payment_collection: PaymentCollection });

export const Payment = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  payment_collection_id: Nullable(Type.String()),
  payment_session_id: Nullable(Type.String()),
  provider_id: Type.String(),
  amount: Money(),
  currency_code: Type.String(),
  status: Type.String({
    description: 'authorized | captured | partially_captured | canceled | refunded | partially_refunded',
  }),
  captured_amount: Money(),
  refunded_amount: Money(),
  captured_at: NullableTimestamp,
  canceled_at: NullableTimestamp,
  data: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** A collection as an order shows it: with the payments made from it. */
export const OrderPaymentCollection = Type.Object({
  ...PaymentCollection.properties,
  payments: Type.Array(Payment),
});

export const CreatePaymentCollectionBody = Type.Object(
  { cart_id: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const CreatePaymentSessionBody = Type.Object(
  {
    provider_id: Type.String({ minLength: 1, maxLength: 200 }),
    data: Type.Optional(ShopperJsonObject),
  },
  { additionalProperties: false },
);

export const PaymentProvidersQuery = Type.Object({
  region_id: Type.String({ minLength: 1, maxLength: 200 }),
  ...pageQuery(20),
});

export const PaymentProviderList = listEnvelope(
  'payment_providers',
  Type.Object({ id: Type.String(), is_enabled: Type.Boolean() }),
);

export type PaymentCollectionView = Static<typeof PaymentCollection>;
export type PaymentView = Static<typeof Payment>;
export type OrderPaymentCollectionView = Static<typeof OrderPaymentCollection>;
