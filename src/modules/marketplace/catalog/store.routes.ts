import { ok } from '../../../platform/http/responses.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { getFeedProduct, listFeed, listUpdates } from './feed.ts';
import { parseItemPath } from './item-path.ts';
import { FeedList, FeedProduct, FeedQuery, UpdatesQuery, UpdatesResponse, WildcardParams } from './schema.ts';

const tags = ['marketplace (federation)'];

/** The catalog as shops read it, inside /store/marketplace. Ids contain a slash, so item paths are wildcards parsed by item-path.ts. */
export function registerFeedRoutes(scope: App, deps: AppDeps): void {
  scope.get(
    '/feed',
    {
      schema: {
        tags,
        summary: 'Catalog: newest version of each published item',
        querystring: FeedQuery,
        response: ok(FeedList),
      },
    },
    async (req) => listFeed(req.ctx, req.query),
  );

  scope.get(
    '/feed/*',
    {
      schema: {
        tags,
        summary: 'One item (`@vendor/id`, slash as is) with all versions',
        params: WildcardParams,
        response: ok(FeedProduct),
      },
    },
    async (req) => ({ product: await getFeedProduct(req.ctx, parseItemPath(req.params['*'])) }),
  );

  scope.get(
    '/updates',
    {
      schema: {
        tags,
        summary: 'Newer versions of installed items',
        querystring: UpdatesQuery,
        response: ok(UpdatesResponse),
      },
    },
    async (req) => listUpdates(req.ctx, deps.config.publicUrl, req.query.versions),
  );
}
