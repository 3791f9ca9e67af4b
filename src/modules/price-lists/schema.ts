import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';
import { Money } from '../../platform/money/schema.ts';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Ids = Type.Array(Id, { maxItems: 1000 });
const Quantity = Nullable(Type.Integer({ minimum: 0, maximum: 2_147_483_647 }));
const Currency = Type.String({ pattern: '^[A-Za-z]{3}$' });
/** Price rules: Medusa allows any attribute; the store's price selection reads `region_id`. */
const PriceRules = Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 200 }), { maxProperties: 10 });
/** Price list rules: `customer.groups.id` is the one the store's price selection reads. */
const ListRules = Type.Record(Type.String({ maxLength: 100 }), Type.Array(Id, { maxItems: 1000 }), {
  maxProperties: 10,
});
const Status = Type.Union([Type.Literal('draft'), Type.Literal('active')]);
const ListType = Type.Union([Type.Literal('sale'), Type.Literal('override')]);
const DateText = Nullable(Type.String({ format: 'date-time' }));

/** Medusa's AdminPrice of a price list (`buildPriceSetPricesForCore`). */
export const PriceListPrice = Type.Object({
  id: Type.String(),
  currency_code: Type.String(),
  amount: Money(),
  min_quantity: Nullable(Type.Number()),
  max_quantity: Nullable(Type.Number()),
  variant_id: Type.String(),
  rules: Type.Record(Type.String(), Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: NullableTimestamp,
});

export const PriceList = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Nullable(Type.String()),
  type: ListType,
  status: Status,
  starts_at: NullableTimestamp,
  ends_at: NullableTimestamp,
  rules: Type.Record(Type.String(), Type.Array(Type.String())),
  prices: Type.Array(PriceListPrice),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: NullableTimestamp,
});

export const PriceListEnvelope = Type.Object({ price_list: PriceList });
export const PriceListList = listEnvelope('price_lists', PriceList);
export const PriceListPrices = Type.Object({
  prices: Type.Array(PriceListPrice),
  count: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const CreatePriceBody = Type.Object(
  {
    variant_id: Id,
    currency_code: Currency,
    amount: Money({ minimum: 0 }),
    min_quantity: Type.Optional(Quantity),
    max_quantity: Type.Optional(Quantity),
    rules: Type.Optional(PriceRules),
  },
  { additionalProperties: false },
);

export const UpdatePriceBody = Type.Object(
  {
    id: Id,
    variant_id: Id,
    currency_code: Type.Optional(Currency),
    amount: Type.Optional(Money({ minimum: 0 })),
    min_quantity: Type.Optional(Quantity),
    max_quantity: Type.Optional(Quantity),
    rules: Type.Optional(PriceRules),
  },
  { additionalProperties: false },
);

export const CreatePriceListBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 255 }),
    description: Type.String({ maxLength: 2000 }),
    starts_at: Type.Optional(DateText),
    ends_at: Type.Optional(DateText),
    status: Type.Optional(Status),
    type: Type.Optional(ListType),
    rules: Type.Optional(ListRules),
    prices: Type.Optional(Type.Array(CreatePriceBody, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);

export const UpdatePriceListBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    starts_at: Type.Optional(DateText),
    ends_at: Type.Optional(DateText),
    status: Type.Optional(Status),
    type: Type.Optional(ListType),
    rules: Type.Optional(ListRules),
  },
  { additionalProperties: false },
);

export const BatchPricesBody = Type.Object(
  {
    create: Type.Optional(Type.Array(CreatePriceBody, { maxItems: 1000 })),
    update: Type.Optional(Type.Array(UpdatePriceBody, { maxItems: 1000 })),
    delete: Type.Optional(Ids),
  },
  { additionalProperties: false },
);

export const BatchPricesResult = Type.Object({
  created: Type.Array(PriceListPrice),
  updated: Type.Array(PriceListPrice),
  deleted: Type.Object({ ids: Type.Array(Type.String()), object: Type.Literal('price'), deleted: Type.Literal(true) }),
});

export const RemoveProductsBody = Type.Object({ remove: Type.Optional(Ids) }, { additionalProperties: false });

const OneOrMany = (max: number) =>
  Type.Union([Type.String({ maxLength: max }), Type.Array(Type.String({ maxLength: max }), { maxItems: 100 })]);

export const PriceListQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 255 })),
  id: Type.Optional(OneOrMany(200)),
  status: Type.Optional(Type.Union([Status, Type.Array(Status, { maxItems: 2 })])),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
});

export const PricesQuery = Type.Object({
  ...pageQuery(50),
  variant_id: Type.Optional(OneOrMany(200)),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const GetQuery = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });
