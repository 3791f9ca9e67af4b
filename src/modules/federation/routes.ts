import { Type } from 'typebox';
import { ok } from '../../platform/http/responses.ts';
import { NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';
import { listLicenseChecks } from './queries.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { adminFeed, adminFeedItem } from './feed.ts';
import { AdminFeedItem, AdminFeedItemParams, AdminFeedList, AdminFeedQuery } from './schema.ts';
import { adminResource } from '../../platform/http/permissions.ts';

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
});
