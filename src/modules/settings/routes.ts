import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { KeyParams, SettingDeleted, SettingEnvelope, SettingList, UpsertSettingBody } from './schema.ts';
import { deleteSetting, listSettings, retrieveSetting, setSetting } from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['settings'];

export const settingRoutes: RouteModule = adminResource('settings', (app) => {
  app.get(
    '/settings',
    { schema: { tags, summary: 'All settings, ordered by key', response: ok(SettingList) } },
    async (req) => ({ settings: await listSettings(req.ctx) }),
  );

  app.get(
    '/settings/:key',
    { schema: { tags, summary: 'Get a setting', params: KeyParams, response: ok(SettingEnvelope) } },
    async (req) => ({ setting: await retrieveSetting(req.ctx, req.params.key) }),
  );

  app.post(
    '/settings',
    {
      schema: { tags, summary: 'Create or replace a setting', body: UpsertSettingBody, response: ok(SettingEnvelope) },
    },
    async (req) => ({ setting: await setSetting(req.ctx, req.body.key, req.body.value) }),
  );

  app.delete(
    '/settings/:key',
    { schema: { tags, summary: 'Delete a setting', params: KeyParams, response: ok(SettingDeleted) } },
    async (req) => deleteSetting(req.ctx, req.params.key),
  );
});
