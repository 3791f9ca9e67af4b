import { Type, type Static } from 'typebox';
import { pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

const Text = Type.String({ minLength: 1, maxLength: 200 });
const Operator = Type.Union([
  Type.Literal('eq'),
  Type.Literal('ne'),
  Type.Literal('in'),
  Type.Literal('gt'),
  Type.Literal('gte'),
  Type.Literal('lt'),
  Type.Literal('lte'),
]);
const InMetadata = Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown())));

export const RuleInput = Type.Object(
  {
    attribute: Type.String({ minLength: 1, maxLength: 200 }),
    operator: Operator,
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    values: Type.Union([
      Type.String({ maxLength: 500 }),
      Type.Array(Type.String({ maxLength: 500 }), { maxItems: 1000 }),
    ]),
  },
  { additionalProperties: false },
);

const rules = Type.Optional(Type.Array(RuleInput, { maxItems: 100 }));

const applicationFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  value: Type.Number({ minimum: 0, description: 'percent, or an amount in the currency (AMOUNT_UNITS)' }),
  currency_code: Type.Optional(Nullable(Type.String({ pattern: '^[a-zA-Z]{3}$' }))),
  max_quantity: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  type: Type.Union([Type.Literal('fixed'), Type.Literal('percentage')]),
  target_type: Type.Union([Type.Literal('items'), Type.Literal('shipping_methods'), Type.Literal('order')]),
  allocation: Type.Optional(Nullable(Type.Union([Type.Literal('each'), Type.Literal('across')]))),
  target_rules: rules,
  buy_rules: rules,
  apply_to_quantity: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  buy_rules_min_quantity: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
};

export const ApplicationMethodInput = Type.Object(applicationFields, { additionalProperties: false });
export const ApplicationMethodPatch = Type.Partial(ApplicationMethodInput, { additionalProperties: false });

const promotionFields = {
  code: Type.String({ minLength: 1, maxLength: 100 }),
  type: Type.Union([Type.Literal('standard'), Type.Literal('buyget')]),
  is_automatic: Type.Optional(Type.Boolean()),
  is_tax_inclusive: Type.Optional(Type.Boolean()),
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('active'), Type.Literal('inactive')])),
  campaign_id: Type.Optional(Nullable(Text)),
  application_method: ApplicationMethodInput,
  rules,
  metadata: InMetadata,
};

export const CreatePromotionBody = Type.Object(promotionFields, { additionalProperties: false });
export const UpdatePromotionBody = Type.Object(
  {
    ...Type.Partial(Type.Object(promotionFields)).properties,
    application_method: Type.Optional(ApplicationMethodPatch),
  },
  { additionalProperties: false },
);

export const PromotionQuery = Type.Object({
  ...pageQuery(),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  code: Type.Optional(Type.String({ maxLength: 100 })),
  campaign_id: Type.Optional(Type.String({ maxLength: 200 })),
  status: Type.Optional(Type.String({ maxLength: 20 })),
  is_automatic: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
});

/** A rule changed in place by a batch (the SDK's `updateRules`): its id and what changes. */
export const RuleUpdate = Type.Object(
  { id: Text, ...Type.Partial(Type.Object(RuleInput.properties)).properties },
  { additionalProperties: false },
);
export type RuleUpdateT = Static<typeof RuleUpdate>;

export const RuleBatchBody = Type.Object(
  {
    create: Type.Optional(Type.Array(RuleInput, { maxItems: 100 })),
    update: Type.Optional(Type.Array(RuleUpdate, { maxItems: 100 })),
    delete: Type.Optional(Type.Array(Text, { maxItems: 100 })),
  },
  { additionalProperties: false },
);

const Rule = Type.Object({
  id: Type.String(),
  attribute: Type.String(),
  operator: Type.String(),
  description: Nullable(Type.String()),
  values: Type.Array(Type.Object({ id: Type.String(), value: Type.String() })),
});

const Budget = Type.Object({
  id: Type.String(),
  type: Type.String(),
  limit: Nullable(Type.Number()),
  used: Type.Number(),
  currency_code: Nullable(Type.String()),
});

export const Campaign = Type.Object({
  id: Type.String(),
  name: Type.String(),
  campaign_identifier: Type.String(),
  description: Nullable(Type.String()),
  starts_at: NullableTimestamp,
  ends_at: NullableTimestamp,
  budget: Nullable(Budget),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: NullableTimestamp,
});

export const Promotion = Type.Object({
  id: Type.String(),
  code: Type.String(),
  type: Type.String(),
  status: Type.String(),
  is_automatic: Type.Boolean(),
  is_tax_inclusive: Type.Boolean(),
  campaign_id: Nullable(Type.String()),
  campaign: Nullable(Campaign),
  application_method: Type.Object({
    id: Type.String(),
    type: Type.String(),
    target_type: Type.String(),
    allocation: Nullable(Type.String()),
    value: Type.Number(),
    currency_code: Nullable(Type.String()),
    max_quantity: Nullable(Type.Integer()),
    apply_to_quantity: Nullable(Type.Integer()),
    buy_rules_min_quantity: Nullable(Type.Integer()),
    description: Nullable(Type.String()),
    target_rules: Type.Array(Rule),
    buy_rules: Type.Array(Rule),
  }),
  rules: Type.Array(Rule),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: NullableTimestamp,
});

const budgetInput = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.Literal('spend'), Type.Literal('usage')])),
    limit: Type.Optional(Nullable(Type.Number({ minimum: 0 }))),
    currency_code: Type.Optional(Nullable(Type.String({ pattern: '^[a-zA-Z]{3}$' }))),
  },
  { additionalProperties: false },
);
const campaignFields = {
  name: Text,
  campaign_identifier: Text,
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  budget: Type.Optional(Nullable(budgetInput)),
  starts_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  ends_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  promotions: Type.Optional(Type.Array(Type.Object({ id: Text }, { additionalProperties: false }), { maxItems: 1000 })),
};
export const CreateCampaignBody = Type.Object(campaignFields, { additionalProperties: false });
export const UpdateCampaignBody = Type.Partial(Type.Object(campaignFields), { additionalProperties: false });
export const CampaignQuery = Type.Object({
  ...pageQuery(),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  campaign_identifier: Type.Optional(Type.String({ maxLength: 200 })),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
});
export const CampaignPromotionsBody = Type.Object(
  {
    add: Type.Optional(Type.Array(Text, { maxItems: 1000 })),
    remove: Type.Optional(Type.Array(Text, { maxItems: 1000 })),
  },
  { additionalProperties: false },
);

const RuleKind = Type.Union([Type.Literal('rules'), Type.Literal('target-rules'), Type.Literal('buy-rules')]);
export const RuleTypeParams = Type.Object({ rule_type: RuleKind });
export const PromotionRuleTypeParams = Type.Object({ id: Text, rule_type: RuleKind });
export const RuleValueParams = Type.Object({ rule_type: RuleKind, rule_attribute_id: Text });

/** The promotion the editor builds rules for (the attributes depend on them). */
const kindQuery = {
  promotion_type: Type.Optional(Type.String({ maxLength: 50 })),
  application_method_type: Type.Optional(Type.String({ maxLength: 50 })),
  application_method_target_type: Type.Optional(Type.String({ maxLength: 50 })),
};
export const RuleAttributeQuery = Type.Object(kindQuery);
export const PromotionRulesQuery = Type.Object({
  ...kindQuery,
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});
export const RuleValueQuery = Type.Object({
  ...pageQuery(100),
  ...kindQuery,
  q: Type.Optional(Type.String({ maxLength: 200 })),
  value: Type.Optional(
    Type.Union([Type.String({ maxLength: 500 }), Type.Array(Type.String({ maxLength: 500 }), { maxItems: 1000 })]),
  ),
});

const OperatorOption = Type.Object({ id: Type.String(), value: Type.String(), label: Type.String() });
const attributeFields = {
  label: Type.String(),
  required: Type.Boolean(),
  field_type: Type.String({ description: 'multiselect, select or number' }),
  operators: Type.Array(OperatorOption),
  disguised: Type.Optional(
    Type.Boolean({ description: "the application method's field of the same id, shown as a rule" }),
  ),
  hydrate: Type.Optional(Type.Boolean()),
};
export const RuleAttributeOption = Type.Object({
  id: Type.String(),
  value: Type.String({ description: 'the path a rule on it tests (`region.id`)' }),
  ...attributeFields,
});
export const ValueOption = Type.Object({ label: Type.String(), value: Type.String() });
export const LabeledRule = Type.Object({
  id: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  ...attributeFields,
  attribute: Type.String(),
  attribute_label: Type.String(),
  operator: Type.String(),
  operator_label: Type.String(),
  description: Type.Optional(Nullable(Type.String())),
  values: Type.Union([Type.Array(ValueOption), Type.Number(), Type.Null()]),
});

/** `promo_codes` of the store's cart routes. */
export const PromoCodesBody = Type.Object(
  { promo_codes: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20 }) },
  { additionalProperties: false },
);

export type CreatePromotionInput = Static<typeof CreatePromotionBody>;
export type UpdatePromotionInput = Static<typeof UpdatePromotionBody>;
export type RuleInputT = Static<typeof RuleInput>;
export type PromotionView = Static<typeof Promotion>;
export type CampaignView = Static<typeof Campaign>;
export type CreateCampaignInput = Static<typeof CreateCampaignBody>;
export type UpdateCampaignInput = Static<typeof UpdateCampaignBody>;
