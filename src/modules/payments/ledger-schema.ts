import { Type, type Static } from 'typebox';
import { Money } from '../../platform/money/schema.ts';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Nullable, Timestamp } from '../../platform/http/schema-types.ts';
import { Payment, PaymentCollection } from './schema.ts';

/** Refund reason and note: free text of at most 255 characters. */
const ShortText = Type.String({ maxLength: 255 });

export const Capture = Type.Object({
  id: Type.String(),
  payment_id: Type.String(),
  amount: Money(),
  created_by: Nullable(Type.String()),
  created_at: Timestamp,
});

export const Refund = Type.Object({
  id: Type.String(),
  payment_id: Type.String(),
  order_id: Type.String(),
  amount: Money(),
  reason: Nullable(Type.String()),
  note: Nullable(Type.String()),
  refund_reason_id: Nullable(Type.String()),
  created_by: Nullable(Type.String()),
  created_at: Timestamp,
});

/** A payment as the order desk shows it (Medusa's admin payment fields plus our running sums). */
export const AdminPayment = Type.Object({
  ...Payment.properties,
  captures: Type.Array(Capture),
  refunds: Type.Array(Refund),
});

export const AdminPaymentCollection = Type.Object({
  ...PaymentCollection.properties,
  payments: Type.Array(AdminPayment),
});

export const AdminPaymentEnvelope = Type.Object({ payment: AdminPayment });
export const AdminPaymentList = listEnvelope('payments', AdminPayment);

const OneOrMany = Type.Union([
  Type.String({ maxLength: 200 }),
  Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 }),
]);

export const AdminPaymentQuery = Type.Object({
  ...pageQuery(20),
  id: Type.Optional(OneOrMany),
  order_id: Type.Optional(OneOrMany),
  payment_session_id: Type.Optional(OneOrMany),
});

export const CaptureBody = Type.Object(
  {
    amount: Type.Optional(
      Money({
        exclusiveMinimum: 0,
        description: 'default: all that is authorized and not yet captured',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Medusa's `POST /admin/payments/{id}/refund`; `reason` is ours, as on `POST /admin/orders/{id}/refunds`. */
export const PaymentRefundBody = Type.Object(
  {
    amount: Type.Optional(
      Money({
        exclusiveMinimum: 0,
        description: 'default: all that is captured and not yet refunded',
      }),
    ),
    reason: Type.Optional(ShortText),
    note: Type.Optional(ShortText),
    refund_reason_id: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** `POST /admin/orders/{id}/refunds`, Emporium's own: a refund per order, where Medusa refunds per payment. */
export const OrderRefundBody = Type.Object(
  {
    amount: Money({ exclusiveMinimum: 0 }),
    reason: Type.Optional(ShortText),
    note: Type.Optional(ShortText),
  },
  { additionalProperties: false },
);

export type AdminPaymentView = Static<typeof AdminPayment>;
export type AdminPaymentCollectionView = Static<typeof AdminPaymentCollection>;
export interface PaymentFilters {
  id?: string[];
  order_id?: string[];
  payment_session_id?: string[];
}
