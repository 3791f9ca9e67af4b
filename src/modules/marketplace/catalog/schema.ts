import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../../platform/http/schema-types.ts';
import { PLUGIN_TYPES } from '../../../plugin-package/manifest.ts';
import { FEED_MAX_PER_PAGE } from './feed.ts';
import { MAX_DESCRIPTION, MAX_PRICE_EUR } from './item-fields.ts';

/** How a paid item is sold: `price_eur` once, or each month or year (a subscription). */
export const BillingField = Type.Unsafe<'one_time' | 'monthly' | 'yearly'>({
  type: 'string',
  enum: ['one_time', 'monthly', 'yearly'],
  description: 'one_time: price_eur once (a 365-day licence); monthly or yearly: a subscription',
});

const PluginTypeField = Type.Unsafe<string>({ type: 'string', enum: [...PLUGIN_TYPES], description: 'plugin type' });

/** The manifest as published (manifest.json with defaults applied); always has `id`. */
const Manifest = Type.Object({ id: Type.String(), version: Type.String() }, { additionalProperties: true });

/** A marketplace id in a request body (checkout, license verify). */
export const MarketplaceIdField = Type.String({ minLength: 1, maxLength: 200, description: '`@<vendor>/<id>`' });

/** Wildcard path `{marketplaceId}` or `{marketplaceId}/{version}`; the id contains a slash. */
export const WildcardParams = Type.Object({ '*': Type.String({ maxLength: 400 }) });

export const FeedItem = Type.Object({
  id: Type.String(),
  marketplace_id: Type.String({ description: '`@<vendor>/<id>`' }),
  vendor: Type.String(),
  name: Type.String(),
  type: Type.String(),
  description: Type.String(),
  version: Type.String({ description: 'newest version, dotted numeric' }),
  price_eur: Type.Number({ description: '0 for free items' }),
  billing: BillingField,
  manifest: Manifest,
  download_url: Type.String({ description: '/store/marketplace/download/{marketplaceId}/{version}' }),
  sha256: Type.String(),
  size: Type.Integer(),
  published_at: Timestamp,
  rating_average: Nullable(Type.Number({ description: 'average of the visible ratings (1–5), one decimal' })),
  rating_count: Type.Integer(),
  active_installs: Type.Integer({ description: 'distinct shops that downloaded it in the last 90 days' }),
});

const InstanceIdField = Type.Optional(
  Type.String({ maxLength: 200, description: "the shop's instance token: places it in or out of staged rollouts" }),
);

export const FeedQuery = Type.Object({
  instance_id: InstanceIdField,
  type: Type.Optional(PluginTypeField),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'matches name, marketplace_id and description' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: '1-based' })),
  per_page: Type.Optional(Type.Integer({ minimum: 0, description: `default 20, at most ${FEED_MAX_PER_PAGE}` })),
});

export const FeedList = listEnvelope('products', FeedItem);

const FeedVersion = Type.Object({
  version: Type.String(),
  published_at: Timestamp,
  sha256: Type.String(),
  size: Type.Integer(),
  changelog_url: Nullable(Type.String()),
});

export const FeedProduct = Type.Object({
  product: Type.Object({
    ...FeedItem.properties,
    changelog_url: Nullable(Type.String()),
    versions: Type.Array(FeedVersion),
  }),
});

export const FeedItemQuery = Type.Object({ instance_id: InstanceIdField });

export const UpdatesQuery = Type.Object({
  instance_id: InstanceIdField,
  versions: Type.String({ maxLength: 50_000, description: 'JSON object: marketplace_id → installed version' }),
});

export const UpdatesResponse = Type.Object({
  updates: Type.Array(
    Type.Object({
      marketplace_id: Type.String(),
      current: Type.String(),
      latest: Type.String(),
      changelog_url: Type.String(),
    }),
  ),
});

const AdminVersion = Type.Object({
  id: Type.String(),
  version: Type.String(),
  sha256: Type.String(),
  size: Type.Integer(),
  signature: Type.String(),
  key_id: Type.String(),
  changelog_url: Nullable(Type.String()),
  published_at: Timestamp,
  manifest: Manifest,
  status: Type.Union([
    Type.Literal('in_review'),
    Type.Literal('approved'),
    Type.Literal('rejected'),
    Type.Literal('revoked'),
  ]),
  review_reason: Nullable(Type.String()),
  reviewed_at: NullableTimestamp,
  review_checks: Nullable(
    Type.Object({
      checks: Type.Array(Type.Object({ name: Type.String(), ok: Type.Boolean(), detail: Type.String() })),
      permissions: Type.Array(Type.String()),
    }),
  ),
  rollout_percent: Type.Integer({ description: 'share of shops offered this version (staged rollout)' }),
  rollout_halted_at: NullableTimestamp,
});

export const ReviewParams = Type.Object({
  id: Type.String({ maxLength: 200 }),
  version_id: Type.String({ maxLength: 200 }),
});
export const ApproveBody = Type.Object(
  {
    reason: Type.Optional(Type.String({ maxLength: 2000 })),
    override: Type.Optional(
      Type.Boolean({
        description:
          'true approves a version that failed an automatic check (with a `reason`): the operator lists it anyway',
      }),
    ),
  },
  { additionalProperties: false },
);
export const RolloutBody = Type.Object(
  {
    rollout_percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    halted: Type.Optional(
      Type.Boolean({ description: 'true halts the rollout (offered to no shop), false resumes it' }),
    ),
  },
  { additionalProperties: false },
);
export const RejectBody = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 2000 }) },
  { additionalProperties: false },
);

export const AdminItem = Type.Object({
  id: Type.String(),
  marketplace_id: Type.String(),
  vendor: Type.String(),
  name: Type.String(),
  type: Type.String(),
  description: Type.String(),
  price_eur: Type.Number(),
  billing: BillingField,
  changelog_url: Nullable(Type.String()),
  published: Type.Boolean(),
  unpublished_at: NullableTimestamp,
  version: Nullable(Type.String()),
  sha256: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  versions: Type.Array(AdminVersion),
});

export const AdminItemEnvelope = Type.Object({ item: AdminItem });
export const AdminItemList = listEnvelope('items', AdminItem);

export const AdminItemsQuery = Type.Object({
  ...pageQuery(20),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Optional(PluginTypeField),
});

/** Documents the multipart form; readUpload checks it (the body is streamed, not schema-validated). */
export const PublishForm = Type.Object({
  file: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'the .tgz package' }),
  price_eur: Type.Optional(Type.String({ description: 'euros, e.g. 29.99 (default 0: free)' })),
  billing: Type.Optional(
    Type.String({ description: 'one_time (default), monthly or yearly: the price is charged once or each period' }),
  ),
  changelog_url: Type.Optional(Type.String({ format: 'uri' })),
  description: Type.Optional(Type.String({ maxLength: MAX_DESCRIPTION })),
  rollout_percent: Type.Optional(
    Type.String({ description: 'staged rollout: share of shops offered it, 0–100 (default 100)' }),
  ),
});

export const UpdateItemBody = Type.Object(
  {
    price_eur: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_PRICE_EUR })),
    billing: Type.Optional(BillingField),
    changelog_url: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    description: Type.Optional(Type.String({ maxLength: MAX_DESCRIPTION })),
  },
  { additionalProperties: false },
);

export const CrashReportsResponse = Type.Object({
  crash_reports: Type.Array(
    Type.Object({
      version_id: Type.String(),
      version: Type.String(),
      instances: Type.Integer({ description: 'shops that rolled this version back' }),
      reports: Type.Integer(),
      last_reported_at: NullableTimestamp,
      reasons: Type.Array(
        Type.Object({ reason: Type.String(), rolled_back_to: Nullable(Type.String()), at: Timestamp }),
      ),
    }),
  ),
});
