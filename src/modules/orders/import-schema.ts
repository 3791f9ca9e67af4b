import { Type, type Static } from 'typebox';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';
import { Money } from '../../platform/money/schema.ts';
import { AddressInput } from '../carts/schema.ts';

/**
 * `POST /admin/orders/import`: orders placed elsewhere (a shop moving here, a marketplace, a
 * phone desk), written as they were, in one transaction per request: all of them or none.
 */

/** Orders one request may carry: a 1,000-order page of a migration stays a few MB and one short transaction. */
export const MAX_IMPORTED_ORDERS = 1000;
const Id = Type.String({ minLength: 1, maxLength: 200 });
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });

export const ImportedItem = Type.Object(
  {
    variant_id: Type.Optional(
      Nullable({
        ...Id,
        description: "copies the product's titles, sku and thumbnail (any variant still in the catalog, live or not)",
      }),
    ),
    title: Type.Optional(Text(500)),
    product_title: Type.Optional(Text(500)),
    variant_title: Type.Optional(Type.String({ maxLength: 500 })),
    sku: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    unit_price: Money({ minimum: 0, maximum: 1e13 }),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    description: 'a line: by variant, or by title alone (a product this shop does not sell)',
  },
);

export const ImportedShippingMethod = Type.Object(
  { name: Text(500), amount: Money({ minimum: 0, maximum: 1e13 }) },
  { additionalProperties: false },
);

export const ImportedOrder = Type.Object(
  {
    external_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'its id where it came from: unique, and an order whose id was imported before is skipped',
      }),
    ),
    email: Type.String({ format: 'email', maxLength: 320 }),
    customer_id: Type.Optional(
      Nullable({
        ...Id,
        description: 'without it, the customer with this email when there is one (one with an account first)',
      }),
    ),
    region_id: Id,
    currency_code: Type.String({ minLength: 3, maxLength: 3, description: "the region's" }),
    sales_channel_id: Type.Optional(Nullable(Id)),
    created_at: Type.Optional(Timestamp),
    status: Type.Optional(
      Type.Union(
        [Type.Literal('pending'), Type.Literal('completed'), Type.Literal('archived'), Type.Literal('canceled')],
        {
          default: 'completed',
        },
      ),
    ),
    payment_status: Type.Optional(
      Type.Union(
        [
          Type.Literal('not_paid'),
          Type.Literal('authorized'),
          Type.Literal('captured'),
          Type.Literal('refunded'),
          Type.Literal('canceled'),
        ],
        {
          default: 'captured',
          description:
            'of the whole total: authorized (to capture later, e.g. paid on invoice), captured, refunded, or canceled (an authorization released)',
        },
      ),
    ),
    fulfillment_status: Type.Optional(
      Type.Union(
        [Type.Literal('not_fulfilled'), Type.Literal('fulfilled'), Type.Literal('shipped'), Type.Literal('delivered')],
        { default: 'not_fulfilled', description: 'fulfilled, shipped or delivered: every unit, in one fulfilment' },
      ),
    ),
    shipping_address: Type.Optional(Nullable(AddressInput)),
    billing_address: Type.Optional(Nullable(AddressInput)),
    items: Type.Array(ImportedItem, { minItems: 1, maxItems: 100 }),
    shipping_methods: Type.Optional(Type.Array(ImportedShippingMethod, { maxItems: 10 })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const ImportOrdersBody = Type.Object(
  { orders: Type.Array(ImportedOrder, { minItems: 1, maxItems: MAX_IMPORTED_ORDERS }) },
  { additionalProperties: false },
);

const ImportedRef = Type.Object({
  id: Type.String(),
  display_id: Type.Integer(),
  external_id: Nullable(Type.String()),
});

export const ImportOrdersResponse = Type.Object({
  imported: Type.Array(ImportedRef, { description: 'in the order sent' }),
  skipped: Type.Array(ImportedRef, { description: 'already imported (by external_id): left as they are' }),
});

export type ImportedOrderInput = Static<typeof ImportedOrder>;
export type ImportOrdersResult = Static<typeof ImportOrdersResponse>;
