import { ok } from '../../../platform/http/responses.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { parseVersionPath } from '../catalog/item-path.ts';
import { WildcardParams } from '../catalog/schema.ts';
import { downloadDescriptor, readArtifact } from './download.ts';
import { ArtifactBytes, ArtifactQuery, Descriptor, DownloadQuery } from './schema.ts';

const tags = ['marketplace (federation)'];

/** Inside /store/marketplace: the descriptor (paid items need a license) and the bytes behind its signed URL. */
export function registerDownloadRoutes(scope: App, deps: AppDeps): void {
  const urls = { publicUrl: deps.config.publicUrl, encryptionKey: deps.config.encryptionKey };

  scope.get(
    '/download/*',
    {
      schema: {
        tags,
        summary: 'Download descriptor: signed URL (15 min), sha256, signature',
        params: WildcardParams,
        querystring: DownloadQuery,
        response: ok(Descriptor),
      },
    },
    async (req) => {
      const { marketplaceId, version } = parseVersionPath(req.params['*']);
      return downloadDescriptor(req.ctx, urls, marketplaceId, version, req.query);
    },
  );

  scope.get(
    '/artifacts/*',
    {
      schema: {
        tags,
        summary: 'The package bytes behind a signed download URL',
        params: WildcardParams,
        querystring: ArtifactQuery,
        produces: ['application/gzip'],
        response: ok(ArtifactBytes),
      },
    },
    async (req, reply) => {
      const { marketplaceId, version } = parseVersionPath(req.params['*']);
      const { bytes, filename } = await readArtifact(req.ctx, urls, marketplaceId, version, req.query);
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(bytes);
    },
  );
}
