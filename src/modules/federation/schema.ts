import { Type } from 'typebox';
import { Nullable } from '../../platform/http/schema-types.ts';
import { MARKETPLACE_ID_PATTERN, PLUGIN_TYPES } from '../../plugin-package/manifest.ts';

export const AdminFeedQuery = Type.Object({
  type: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...PLUGIN_TYPES] })),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'name, marketplace_id or description' })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: '1-based' })),
  per_page: Type.Optional(Type.Integer({ minimum: 0, description: 'default 20, at most 100' })),
});

/** A feed entry (the marketplace's fields, passed through) plus this shop's install state. */
const FeedEntry = Type.Object(
  {
    id: Type.String(),
    marketplace_id: Type.String(),
    name: Type.String(),
    type: Type.String(),
    version: Type.String({ description: 'newest version' }),
    price_eur: Type.Number(),
    billing: Type.Optional(
      Type.String({
        description: 'one_time, monthly or yearly (a subscription; cancel it with …/subscription/cancel)',
      }),
    ),
    source: Type.String({ enum: ['local', 'federation'] }),
    plugin_id: Nullable(Type.String({ description: 'the installed plugin row, if any' })),
    installed_version: Nullable(Type.String()),
    status: Nullable(Type.String({ description: 'install status, null when not installed' })),
    rating_average: Type.Optional(Nullable(Type.Number())),
    rating_count: Type.Optional(Type.Integer()),
    active_installs: Type.Optional(Type.Integer()),
    rollback: Nullable(
      Type.Object(
        { from: Type.String(), to: Type.String(), reason: Type.String(), at: Type.String() },
        { description: 'the installed update crash-looped and the shop rolled back to the version before' },
      ),
    ),
    permissions: Nullable(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'rights the newest version asks for: events, apis, routes, providers, hosts, admin_extension',
        },
      ),
    ),
    permissions_declared: Nullable(
      Type.Boolean({ description: 'false: old manifest without permissions (legacy rights)' }),
    ),
  },
  { additionalProperties: true },
);

export const AdminFeedItem = Type.Object({
  product: Type.Intersect([
    FeedEntry,
    Type.Object({
      description: Nullable(Type.String()),
      versions: Type.Array(
        Type.Object(
          {
            version: Type.String(),
            published_at: Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' }),
            changelog_url: Nullable(Type.String()),
          },
          { additionalProperties: true },
        ),
        { description: 'newest first' },
      ),
    }),
  ]),
});

export const AdminFeedItemParams = Type.Object({
  '*': Type.String({
    pattern: MARKETPLACE_ID_PATTERN,
    maxLength: 200,
    description: '`@<vendor>/<id>`, the slash as is',
  }),
});

export const AdminFeedList = Type.Object({
  products: Type.Array(FeedEntry),
  local_errors: Type.Optional(
    Type.Array(
      Type.Object({
        file: Type.String({ description: '`plugins/<name>`' }),
        marketplace_id: Type.Union([Type.String(), Type.Null()]),
        error: Type.String({ description: 'why it cannot be packed, e.g. a dependency to npm install' }),
      }),
      { description: 'PLUGINS_DIR entries that are not offered because they cannot be packed' },
    ),
  ),
  count: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

const MarketplaceId = Type.String({ minLength: 1, maxLength: 200, description: '`@<vendor>/<id>`' });
const Version = Type.String({ minLength: 1, maxLength: 50 });

export const PaidCheckoutBody = Type.Object(
  {
    marketplace_id: MarketplaceId,
    version: Version,
    customer_email: Type.String({
      format: 'email',
      maxLength: 320,
      description: "the operator's e-mail: the license's buyer",
    }),
  },
  { additionalProperties: false },
);

export const PaidCheckoutCreated = Type.Object({
  id: Type.String({
    description: "the marketplace's checkout session id (poll it with GET /admin/marketplace/checkout/{id})",
  }),
  url: Type.String({ description: 'the hosted checkout page to open in a browser' }),
  expires_at: Type.String({ format: 'date-time' }),
});

export const CheckoutIdParams = Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,100}$' }) });

export const PaidCheckoutPolled = Type.Object({
  checkout: Type.Object({
    id: Type.String(),
    status: Type.String({ description: 'open | paid | expired' }),
    marketplace_id: Nullable(Type.String()),
    version: Nullable(Type.String()),
    expires_at: Nullable(Type.String()),
    paid_at: Nullable(Type.String()),
  }),
  plugin_id: Nullable(
    Type.String({ description: 'the plugin row installing or installed with the license, once paid' }),
  ),
});

/** The license-issued body the marketplace signs; validated only after its signature verified (callback-verify.ts). */
export const LicenseIssuedBody = Type.Object(
  {
    marketplace_id: MarketplaceId,
    version: Version,
    license_key: Type.String({ minLength: 1, maxLength: 200 }),
    purchased_by: Type.String({ maxLength: 320 }),
  },
  { additionalProperties: false },
);

export const LicenseIssuedReceived = Type.Object({ received: Type.Literal(true), plugin_id: Type.String() });

export const CancelSubscriptionBody = Type.Object(
  { plugin_id: Type.String({ minLength: 1, maxLength: 200, description: 'the installed, licensed plugin' }) },
  { additionalProperties: false },
);
export const CancelledSubscription = Type.Object({
  subscription: Type.Object({
    plugin_id: Type.String(),
    marketplace_id: Type.String(),
    status: Type.String({ description: 'active, past_due or canceled (on the marketplace)' }),
    billing: Type.Union([Type.String(), Type.Null()]),
    current_period_end: Type.Union([Type.String(), Type.Null()]),
    cancel_at_period_end: Type.Boolean({
      description: 'true: no more renewals; the plugin runs to current_period_end',
    }),
    canceled_at: Type.Union([Type.String(), Type.Null()]),
  }),
});
