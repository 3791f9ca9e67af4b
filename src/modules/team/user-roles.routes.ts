import { Type } from 'typebox';
import { deletedEnvelope } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { BatchDeleted, RbacRole, UserRoleListQuery, UserRoleParams, UserRolesBody } from './rbac-schema.ts';
import { addUserRoles, listUserRoles, removeUserRoles } from './rbac-service.ts';
import { pageAnswer, pageSchema } from './paged-route.ts';
import { getUserById, resetTokenFor } from './users-service.ts';

const tags = ['users'];

/**
 * Medusa's user routes beyond the profile (`sdk.admin.user.listRoles`, `addRoles`, `removeRole(s)`,
 * `listAuthProviders`, `generateResetPasswordToken`) over our model: a user holds exactly one role.
 */
export const adminUserRoleRoutes: RouteModule = adminResource('team', (app) => {
  app.get(
    '/users/:id/roles',
    {
      schema: pageSchema(tags, 'A user’s roles (the one they hold)', 'roles', RbacRole, {
        params: IdParams,
        querystring: UserRoleListQuery,
      }),
    },
    async (req) => pageAnswer(req.query, (page) => listUserRoles(req.ctx, req.params.id, req.query.role_id, page)),
  );

  app.post(
    '/users/:id/roles',
    {
      schema: {
        tags,
        summary: 'Give a user one role, which replaces the one they hold (only roles you hold; never the last owner)',
        params: IdParams,
        body: UserRolesBody,
        response: ok(Type.Object({ roles: Type.Array(RbacRole) })),
      },
    },
    async (req) => addUserRoles(req.ctx, req.actor!, req.params.id, req.body.roles),
  );

  app.delete(
    '/users/:id/roles',
    {
      schema: {
        tags,
        summary: 'Take roles from a user: refused for the role they hold (give another instead)',
        params: IdParams,
        body: UserRolesBody,
        response: ok(BatchDeleted('user_role')),
      },
    },
    async (req) => {
      await removeUserRoles(req.ctx, req.params.id, req.body.roles);
      return { ids: req.body.roles, object: 'user_role' as const, deleted: true as const };
    },
  );

  app.delete(
    '/users/:id/roles/:role_id',
    {
      schema: {
        tags,
        summary: 'Take a role from a user: refused for the role they hold (give another instead)',
        params: UserRoleParams,
        response: ok(deletedEnvelope('user_role')),
      },
    },
    async (req) => {
      await removeUserRoles(req.ctx, req.params.id, [req.params.role_id]);
      return { id: req.params.role_id, object: 'user_role' as const, deleted: true as const };
    },
  );

  app.get(
    '/users/:id/auth-providers',
    {
      schema: {
        tags,
        summary: 'How a user signs in: email and password',
        params: IdParams,
        response: ok(Type.Object({ providers: Type.Array(Type.String()) })),
      },
    },
    async (req) => {
      await getUserById(req.ctx, req.params.id);
      return { providers: ['emailpass'] };
    },
  );

  app.post(
    '/users/:id/reset-password',
    {
      schema: {
        tags,
        summary:
          'A password reset token for a user, for POST /auth/user/emailpass/update (15 minutes, once; only for a user whose role holds nothing yours lacks)',
        params: IdParams,
        response: ok(Type.Object({ token: Type.String() })),
      },
    },
    async (req) => ({ token: await resetTokenFor(req.ctx, req.actor!, req.params.id) }),
  );
});
