import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { Type } from 'typebox';
import { listEnvelope, pageOf, pageQuery } from '../../platform/http/pagination.ts';
import { adminResource, SELF } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { User } from '../auth/schema.ts';
import { getUser, listUsers } from '../auth/service.ts';
import { UpdateMeBody, UpdateUserBody } from './schema.ts';
import { deleteUser, getUserById, updateUser } from './users-service.ts';

const tags = ['users'];
const UserEnvelope = Type.Object({ user: User });

/** Medusa's `/admin/users`: the team. Everyone may read and edit themself at `/users/me` (not their role). */
export const adminUserRoutes: RouteModule = adminResource('team', (app) => {
  app.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'Admin users and their roles',
        querystring: Type.Object(pageQuery(50)),
        response: ok(listEnvelope('users', User)),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listUsers(req.ctx, page)), ...page };
    },
  );

  app.get(
    '/users/me',
    { schema: { tags, summary: 'The signed-in admin user', response: ok(UserEnvelope) }, config: { permission: SELF } },
    async (req) => ({ user: await getUser(req.ctx, req.actor!.id) }),
  );

  app.post(
    '/users/me',
    {
      schema: {
        tags,
        summary: 'Change your own name, avatar or metadata',
        body: UpdateMeBody,
        response: ok(UserEnvelope),
      },
      config: { permission: SELF },
    },
    async (req) => {
      await getUser(req.ctx, req.actor!.id); // an API key has no profile: 401
      return { user: await updateUser(req.ctx, req.actor!, req.actor!.id, req.body) };
    },
  );

  app.get(
    '/users/:id',
    { schema: { tags, summary: 'A team member', params: IdParams, response: ok(UserEnvelope) } },
    async (req) => ({ user: await getUserById(req.ctx, req.params.id) }),
  );

  app.post(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'Change a team member (role: only one you hold yourself; owners only by owners; never the last owner)',
        params: IdParams,
        body: UpdateUserBody,
        response: ok(UserEnvelope),
      },
    },
    async (req) => ({ user: await updateUser(req.ctx, req.actor!, req.params.id, req.body) }),
  );

  deleteByIdRoute(app, '/users/:id', {
    tags,
    summary: 'Remove a team member (their sign-ins stop at once; never the last owner)',
    object: 'user',
    remove: (req) => deleteUser(req.ctx, req.actor!, req.params.id),
  });
});
