import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { Type } from 'typebox';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { createRole, deleteRole, getRole, listRoles, permissionCatalog, updateRole } from './roles-service.ts';
import { CreateRoleBody, PermissionEntry, Role, UpdateRoleBody } from './schema.ts';

const tags = ['roles'];
const RoleEnvelope = Type.Object({ role: Role });

/** `/admin/roles` (our own; Medusa has no roles): the built-in roles, custom roles, and the permissions they draw on. */
export const adminRoleRoutes: RouteModule = adminResource('team', (app) => {
  app.get(
    '/permissions',
    {
      schema: {
        tags,
        summary: 'Every permission an admin route declares (the x-permission of /openapi.json)',
        response: ok(Type.Object({ permissions: Type.Array(PermissionEntry) })),
      },
    },
    async () => ({ permissions: permissionCatalog() }),
  );

  app.get(
    '/roles',
    {
      schema: {
        tags,
        summary: 'Built-in and custom roles with their permission patterns',
        response: ok(Type.Object({ roles: Type.Array(Role), count: Type.Integer() })),
      },
    },
    async (req) => {
      const roles = await listRoles(req.ctx);
      return { roles, count: roles.length };
    },
  );

  app.get(
    '/roles/:id',
    { schema: { tags, summary: 'A role', params: IdParams, response: ok(RoleEnvelope) } },
    async (req) => ({ role: await getRole(req.ctx, req.params.id) }),
  );

  app.post(
    '/roles',
    { schema: { tags, summary: 'Make a custom role', body: CreateRoleBody, response: ok(RoleEnvelope) } },
    async (req) => ({ role: await createRole(req.ctx, req.body) }),
  );

  app.post(
    '/roles/:id',
    {
      schema: {
        tags,
        summary: 'Change a custom role',
        params: IdParams,
        body: UpdateRoleBody,
        response: ok(RoleEnvelope),
      },
    },
    async (req) => ({ role: await updateRole(req.ctx, req.params.id, req.body) }),
  );

  deleteByIdRoute(app, '/roles/:id', {
    tags,
    summary: 'Delete a custom role nobody holds',
    object: 'role',
    remove: (req) => deleteRole(req.ctx, req.params.id),
  });
});
