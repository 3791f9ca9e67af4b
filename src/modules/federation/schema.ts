import { Type } from 'typebox';
import { Nullable } from '../../platform/http/schema-types.ts';
import { PLUGIN_TYPES } from '../../plugin-package/manifest.ts';

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
    source: Type.String({ enum: ['local', 'federation'] }),
    plugin_id: Nullable(Type.String({ description: 'the installed plugin row, if any' })),
    installed_version: Nullable(Type.String()),
    status: Nullable(Type.String({ description: 'install status, null when not installed' })),
  },
  { additionalProperties: true },
);

export const AdminFeedList = Type.Object({
  products: Type.Array(FeedEntry),
  count: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
