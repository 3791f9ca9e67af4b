import { ok } from '../../platform/http/responses.ts';
import type { App, RouteModule } from '../../platform/http/types.ts';
import { registerCheckoutRoutes } from './checkout.routes.ts';
import { downloadDescriptor, readArtifact } from './download.ts';
import { getFeedProduct, listFeed, listUpdates } from './feed.ts';
import { parseItemPath, parseVersionPath } from './item-path.ts';
import { marketplaceRateLimit } from './rate-limit.ts';
import {
  ArtifactBytes,
  ArtifactQuery,
  Descriptor,
  DownloadQuery,
  FeedList,
  FeedProduct,
  FeedQuery,
  KeysResponse,
  UpdatesQuery,
  UpdatesResponse,
  WildcardParams,
} from './schema.ts';
import { publishedKeys } from './signing-keys.ts';

const tags = ['marketplace (federation)'];

/**
 * The public federation surface (`/store/marketplace/*`, no publishable key: the store guard
 * lets it through), on the marketplace role only, behind the per-IP rate limit. Ids contain a
 * slash, so item paths are wildcards parsed by item-path.ts.
 */
export const storeMarketplaceRoutes: RouteModule = async (app, deps) => {
  if (deps.config.role !== 'marketplace') return;
  const urls = { publicUrl: deps.config.publicUrl, encryptionKey: deps.config.encryptionKey };
  await app.register(
    async (scope: App) => {
      scope.addHook('onRequest', marketplaceRateLimit(scope, deps));

      scope.get(
        '/feed',
        { schema: { tags, summary: 'Catalog: newest version of each published item', querystring: FeedQuery, response: ok(FeedList) } },
        async (req) => listFeed(req.ctx, req.query),
      );

      scope.get(
        '/feed/*',
        { schema: { tags, summary: 'One item (`@vendor/id`, slash as is) with all versions', params: WildcardParams, response: ok(FeedProduct) } },
        async (req) => ({ product: await getFeedProduct(req.ctx, parseItemPath(req.params['*'])) }),
      );

      scope.get(
        '/updates',
        { schema: { tags, summary: 'Newer versions of installed items', querystring: UpdatesQuery, response: ok(UpdatesResponse) } },
        async (req) => listUpdates(req.ctx, deps.config.publicUrl, req.query.versions),
      );

      scope.get('/keys', { schema: { tags, summary: 'Ed25519 public keys that sign artifacts', response: ok(KeysResponse) } }, async (req) => ({
        keys: await publishedKeys(req.ctx),
      }));

      scope.get(
        '/download/*',
        { schema: { tags, summary: 'Download descriptor: signed URL (15 min), sha256, signature', params: WildcardParams, querystring: DownloadQuery, response: ok(Descriptor) } },
        async (req) => {
          const { marketplaceId, version } = parseVersionPath(req.params['*']);
          return downloadDescriptor(req.ctx, urls, marketplaceId, version, req.query);
        },
      );

      scope.get(
        '/artifacts/*',
        { schema: { tags, summary: 'The package bytes behind a signed download URL', params: WildcardParams, querystring: ArtifactQuery, produces: ['application/gzip'], response: ok(ArtifactBytes) } },
        async (req, reply) => {
          const { marketplaceId, version } = parseVersionPath(req.params['*']);
          const { bytes, filename } = await readArtifact(req.ctx, urls, marketplaceId, version, req.query);
          return reply.type('application/gzip').header('content-disposition', `attachment; filename="${filename}"`).send(bytes);
        },
      );

      await registerCheckoutRoutes(scope, deps);
    },
    { prefix: '/marketplace' },
  );
};
