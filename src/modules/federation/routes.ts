import { Type } from 'typebox';
import { ok } from '../../platform/http/responses.ts';
import { NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';
import { listLicenseChecks } from './queries.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { adminFeed, adminFeedItem } from './feed.ts';
import { AdminFeedItem, AdminFeedItemParams, AdminFeedList, AdminFeedQuery } from './schema.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { logState } from './log-state.ts';
import { sendReview } from './review.ts';
import { ShopLogState } from './log-schema.ts';

/** The shop's marketplace view under /admin/marketplace (the catalog itself lives on the marketplace). */
export const adminFederationRoutes: RouteModule = adminResource('marketplace', (app, deps) => {
  app.get(
    '/marketplace/feed',
    {
      schema: {
        tags: ['marketplace (shop)'],
        summary: 'Marketplace feed (or local plugins) with install status',
        querystring: AdminFeedQuery,
        response: ok(AdminFeedList),
      },
    },
    async (req) => adminFeed(req.ctx, deps.config, req.query),
  );

  app.get(
    '/marketplace/feed/*',
    {
      schema: {
        tags: ['marketplace (shop)'],
        summary: 'One marketplace item with its description, versions and install status',
        params: AdminFeedItemParams,
        response: ok(AdminFeedItem),
      },
    },
    async (req) => adminFeedItem(req.ctx, deps.config, req.params['*']),
  );

  app.get(
    '/plugins/license-checks',
    {
      schema: {
        tags: ['plugins'],
        summary: "Paid plugins' last license verification and their offline grace",
        response: ok(
          Type.Object({
            license_checks: Type.Array(
              Type.Object({
                plugin_id: Type.String(),
                last_verified_at: Timestamp,
                grace_until: Timestamp,
                license_expires_at: NullableTimestamp,
              }),
            ),
          }),
        ),
      },
    },
    async (req) => ({
      license_checks: (await listLicenseChecks(req.ctx.db)).map((c) => ({
        plugin_id: c.plugin_id,
        last_verified_at: c.last_verified_at,
        grace_until: c.grace_until,
        license_expires_at: typeof c.last_result.expires_at === 'string' ? c.last_result.expires_at : null,
      })),
    }),
  );

  app.get(
    '/marketplace/log',
    {
      schema: {
        tags: ['marketplace (shop)'],
        summary:
          'The marketplace transparency log as this shop saw it: the largest verified tree head, refusals, every artifact served',
        response: ok(ShopLogState),
      },
    },
    async (req) => logState(req.ctx, deps.config),
  );

  app.post(
    '/marketplace/reviews',
    {
      schema: {
        tags: ['marketplace (shop)'],
        summary: 'Rate and review an installed marketplace plugin (sent to the marketplace with the instance token)',
        body: Type.Object(
          {
            marketplace_id: Type.String({ maxLength: 200 }),
            rating: Type.Integer({ minimum: 1, maximum: 5 }),
            body: Type.Optional(Type.String({ maxLength: 5000 })),
          },
          { additionalProperties: false },
        ),
        response: ok(Type.Object({ review: Type.Object({}, { additionalProperties: true }) })),
      },
    },
    async (req) => sendReview(req.ctx, deps.config, req.body) as Promise<{ review: Record<string, unknown> }>,
  );
});
