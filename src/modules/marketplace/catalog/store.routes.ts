import { ok } from '../../../platform/http/responses.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { Type } from 'typebox';
import { recordCrashReport } from './crash-reports.ts';
import { getFeedProduct, listFeed, listUpdates } from './feed.ts';
import { parseItemPath } from './item-path.ts';
import {
  FeedItemQuery,
  FeedList,
  FeedProduct,
  FeedQuery,
  UpdatesQuery,
  UpdatesResponse,
  WildcardParams,
} from './schema.ts';

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
        querystring: FeedItemQuery,
        response: ok(FeedProduct),
      },
    },
    async (req) => ({
      product: await getFeedProduct(req.ctx, parseItemPath(req.params['*']), req.query.instance_id),
    }),
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
    async (req) => listUpdates(req.ctx, deps.config.publicUrl, req.query.versions, req.query.instance_id),
  );

  scope.post(
    '/crash-reports',
    {
      schema: {
        tags,
        summary: 'A shop reports that a version crash-looped after an update and was rolled back',
        body: Type.Object(
          {
            marketplace_id: Type.String({ maxLength: 200 }),
            version: Type.String({ maxLength: 100 }),
            rolled_back_to: Type.Optional(Type.String({ maxLength: 100 })),
            reason: Type.String({ minLength: 1, maxLength: 500 }),
            instance_id: Type.String({ minLength: 1, maxLength: 200 }),
          },
          { additionalProperties: false },
        ),
        response: ok(Type.Object({ recorded: Type.Boolean() })),
      },
    },
    async (req) => {
      await recordCrashReport(req.ctx, req.body);
      return { recorded: true };
    },
  );
}
