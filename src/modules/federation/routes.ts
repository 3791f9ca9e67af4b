import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { adminFeed } from './feed.ts';
import { AdminFeedList, AdminFeedQuery } from './schema.ts';

/** The shop's marketplace view under /admin/marketplace (the catalog itself lives on the marketplace). */
export const adminFederationRoutes: RouteModule = (app, deps) => {
  app.get(
    '/marketplace/feed',
    { schema: { tags: ['marketplace (shop)'], summary: 'Marketplace feed (or local plugins) with install status', querystring: AdminFeedQuery, response: ok(AdminFeedList) } },
    async (req) => adminFeed(req.ctx, deps.config, req.query),
  );
};
