import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { filterDate } from '../../platform/http/filter-date.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import {
  ApiKeyEnvelope,
  ApiKeyList,
  ApiKeyQuery,
  BatchLinkBody,
  CreateApiKeyBody,
  PublishableApiKeyList,
  PublishableApiKeyQuery,
  RevokeApiKeyBody,
  UpdateApiKeyBody,
} from './schema.ts';
import {
  batchApiKeySalesChannels,
  createApiKey,
  deleteApiKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  updateApiKey,
} from './service.ts';
import { invalidateKeyCache } from './store-guard.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['api-keys'];

export const apiKeyRoutes: RouteModule = adminResource('developer', (app, deps) => {
  // Called after a write commits, so the store's next request sees the key as it now is.
  const keysChanged = () => invalidateKeyCache(deps.database);

  app.get(
    '/api-keys',
    { schema: { tags, summary: 'List API keys', querystring: ApiKeyQuery, response: ok(ApiKeyList) } },
    async (req) => {
      const page = pageOf(req.query, 20);
      const { q, id, title, token, type, revoked_at: r = {} } = req.query;
      const at = (op: '$gt' | '$gte' | '$lt' | '$lte') => filterDate(r[op], `revoked_at.${op}`);
      const revoked_at = { $gt: at('$gt'), $gte: at('$gte'), $lt: at('$lt'), $lte: at('$lte') };
      return { ...(await listApiKeys(req.ctx, { q, id, title, token, type, revoked_at }, page)), ...page };
    },
  );

  app.get(
    '/publishable-api-keys',
    {
      schema: {
        tags,
        summary: 'List publishable keys, revoked ones included',
        querystring: PublishableApiKeyQuery,
        response: ok(PublishableApiKeyList),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 20);
      const { api_keys, count } = await listApiKeys(req.ctx, { q: req.query.q, type: 'publishable' }, page);
      return { publishable_api_keys: api_keys, count, ...page };
    },
  );

  app.get(
    '/api-keys/:id',
    { schema: { tags, summary: 'Get an API key', params: IdParams, response: ok(ApiKeyEnvelope) } },
    async (req) => ({ api_key: await getApiKey(req.ctx, req.params.id) }),
  );

  app.post(
    '/api-keys',
    {
      schema: {
        tags,
        summary: 'Create an API key (a secret token is shown only here)',
        body: CreateApiKeyBody,
        response: ok(ApiKeyEnvelope),
      },
    },
    async (req) => {
      const api_key = await createApiKey(req.ctx, req.body);
      keysChanged();
      return { api_key };
    },
  );

  const updateSchema = {
    tags,
    summary: 'Rename an API key',
    params: IdParams,
    body: UpdateApiKeyBody,
    response: ok(ApiKeyEnvelope),
  };
  for (const method of ['POST', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api-keys/:id',
      schema: updateSchema,
      handler: async (req) => {
        const api_key = await updateApiKey(req.ctx, req.params.id, req.body);
        keysChanged();
        return { api_key };
      },
    });
  }

  app.post(
    '/api-keys/:id/revoke',
    {
      schema: {
        tags,
        summary: 'Revoke an API key, now or after revoke_in seconds',
        params: IdParams,
        body: RevokeApiKeyBody,
        response: ok(ApiKeyEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => {
      const api_key = await revokeApiKey(req.ctx, req.params.id, req.body);
      keysChanged();
      return { api_key };
    },
  );

  deleteByIdRoute(app, '/api-keys/:id', {
    tags,
    summary: 'Delete a revoked API key (soft)',
    object: 'api_key',
    remove: async (req) => {
      await deleteApiKey(req.ctx, req.params.id);
      keysChanged();
    },
  });

  app.post(
    '/api-keys/:id/sales-channels',
    {
      schema: {
        tags,
        summary: 'Link and unlink sales channels of a publishable key',
        params: IdParams,
        body: BatchLinkBody,
        response: ok(ApiKeyEnvelope),
      },
    },
    async (req) => {
      const api_key = await batchApiKeySalesChannels(req.ctx, req.params.id, req.body);
      keysChanged();
      return { api_key };
    },
  );
});
