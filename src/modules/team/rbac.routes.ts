import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { Type } from 'typebox';
import { deletedEnvelope, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { adminResource, SELF } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { User } from '../auth/schema.ts';
import { assignablePolicyKeys, getPolicy, matchesPolicy, policyKeys, policyView } from './rbac-policies.ts';
import {
  AssignablePolicy,
  AssignableRole,
  BatchDeleted,
  CreateRbacRoleBody,
  PageOnlyQuery,
  PolicyListQuery,
  PolicyWriteBody,
  RbacPolicy,
  RbacRole,
  RoleIdParams,
  RoleListQuery,
  RolePoliciesBody,
  RolePolicyParams,
  RoleUserListQuery,
  RoleUsersBody,
  UpdateRbacRoleBody,
} from './rbac-schema.ts';
import {
  addRolePolicies,
  addRoleUsers,
  createRbacRole,
  deleteRbacRole,
  getRbacRole,
  listAssignableRoles,
  listPolicyRoles,
  listRbacRoles,
  listRolePolicies,
  listRoleUsers,
  myPermissions,
  removeRolePolicy,
  removeRoleUsers,
  updateRbacRole,
} from './rbac-service.ts';
import { errors } from '../../platform/http/errors.ts';
import { pageAnswer, pageSchema } from './paged-route.ts';

const tags = ['rbac'];
const RoleEnvelope = Type.Object({ role: RbacRole });
const PolicyEnvelope = Type.Object({ policy: RbacPolicy });

/**
 * Medusa's `/admin/rbac` (its SDK's `admin.rbacRole` and `admin.rbacPolicy`) over our roles
 * (rbac-service.ts): reads take team:read, writes team:write, like `/admin/roles`.
 */
export const adminRbacRoutes: RouteModule = adminResource('team', (app) => {
  app.get(
    '/rbac/me/permissions',
    {
      schema: {
        tags,
        summary: 'What you may do: the declared permissions your role grants, your role, the roles yours covers',
        response: ok(
          Type.Object({
            permissions: Type.Array(Type.String()),
            roles: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
            covered_roles: Type.Array(Type.String()),
          }),
        ),
      },
      config: { permission: SELF },
    },
    async (req) => myPermissions(req.ctx, req.actor!),
  );

  app.get(
    '/rbac/roles',
    {
      schema: pageSchema(tags, 'Roles (built-in and custom) with their policies', 'roles', RbacRole, {
        querystring: RoleListQuery,
      }),
    },
    async (req) => pageAnswer(req.query, (page) => listRbacRoles(req.ctx, req.query, page)),
  );

  app.get(
    '/rbac/roles/assignable',
    {
      schema: {
        tags,
        summary: 'Roles you may give a user: those holding nothing your role lacks',
        querystring: RoleListQuery,
        response: ok(Type.Object({ roles: Type.Array(AssignableRole), count: Type.Integer() })),
      },
    },
    async (req) => listAssignableRoles(req.ctx, req.actor!, req.query),
  );

  app.get(
    '/rbac/roles/:id',
    { schema: { tags, summary: 'A role with its policies', params: RoleIdParams, response: ok(RoleEnvelope) } },
    async (req) => ({ role: await getRbacRole(req.ctx, req.params.id) }),
  );

  app.post(
    '/rbac/roles',
    {
      schema: {
        tags,
        summary: 'Make a custom role of policies you hold yourself',
        body: CreateRbacRoleBody,
        response: ok(RoleEnvelope),
      },
    },
    async (req) => ({ role: await createRbacRole(req.ctx, req.body) }),
  );

  app.post(
    '/rbac/roles/:id',
    {
      schema: {
        tags,
        summary: 'Rename or describe a custom role',
        params: RoleIdParams,
        body: UpdateRbacRoleBody,
        response: ok(RoleEnvelope),
      },
    },
    async (req) => ({ role: await updateRbacRole(req.ctx, req.params.id, req.body) }),
  );

  deleteByIdRoute(app, '/rbac/roles/:id', {
    tags,
    summary: 'Delete a custom role nobody holds',
    object: 'rbac_role',
    remove: (req) => deleteRbacRole(req.ctx, req.params.id),
  });

  app.get(
    '/rbac/roles/:id/policies',
    {
      schema: pageSchema(tags, 'A role’s policies (its permission patterns)', 'policies', RbacPolicy, {
        params: RoleIdParams,
        querystring: PolicyListQuery,
      }),
    },
    async (req) => pageAnswer(req.query, (page) => listRolePolicies(req.ctx, req.params.id, req.query, page)),
  );

  app.post(
    '/rbac/roles/:id/policies',
    {
      schema: {
        tags,
        summary: 'Add policies you hold to a custom role; its policies afterwards',
        params: RoleIdParams,
        body: RolePoliciesBody,
        response: ok(listEnvelope('policies', RbacPolicy)),
      },
    },
    async (req) => {
      const { policies, count } = await addRolePolicies(req.ctx, req.params.id, req.body.policies);
      return { policies, count, limit: count, offset: 0 };
    },
  );

  app.delete(
    '/rbac/roles/:id/policies/:policy_id',
    {
      schema: {
        tags,
        summary: 'Take a policy from a custom role',
        params: RolePolicyParams,
        response: ok(deletedEnvelope('rbac_policy')),
      },
    },
    async (req) => {
      await removeRolePolicy(req.ctx, req.params.id, req.params.policy_id);
      return { id: req.params.policy_id, object: 'rbac_policy' as const, deleted: true as const };
    },
  );

  app.get(
    '/rbac/roles/:id/users',
    {
      schema: pageSchema(tags, 'The users holding a role', 'users', User, {
        params: RoleIdParams,
        querystring: RoleUserListQuery,
      }),
    },
    async (req) => pageAnswer(req.query, (page) => listRoleUsers(req.ctx, req.params.id, req.query.user_id, page)),
  );

  app.post(
    '/rbac/roles/:id/users',
    {
      schema: {
        tags,
        summary: 'Give users this role (it replaces the one each holds; owners only by owners, never the last owner)',
        params: RoleIdParams,
        body: RoleUsersBody,
        response: ok(Type.Object({ users: Type.Array(User) })),
      },
    },
    async (req) => ({ users: await addRoleUsers(req.ctx, req.actor!, req.params.id, req.body.users) }),
  );

  app.delete(
    '/rbac/roles/:id/users',
    {
      schema: {
        tags,
        summary:
          'Take this role away from the users named: refused for a user holding it (a user holds one role; give another instead)',
        params: RoleIdParams,
        body: RoleUsersBody,
        response: ok(BatchDeleted('role_user')),
      },
    },
    async (req) => {
      await removeRoleUsers(req.ctx, req.params.id, req.body.users);
      return { ids: req.body.users, object: 'role_user' as const, deleted: true as const };
    },
  );

  app.get(
    '/rbac/policies',
    {
      schema: {
        tags,
        summary: 'Policies: the permissions routes declare and the wildcards over them',
        querystring: PolicyListQuery,
        response: ok(listEnvelope('policies', RbacPolicy)),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      const all = policyKeys()
        .map(policyView)
        .filter((p) => matchesPolicy(p, req.query));
      return { policies: all.slice(page.offset, page.offset + page.limit), count: all.length, ...page };
    },
  );

  app.get(
    '/rbac/policies/assignable',
    {
      schema: {
        tags,
        summary: 'Policies you may put into a role: those your role grants',
        response: ok(Type.Object({ policies: Type.Array(AssignablePolicy), count: Type.Integer() })),
      },
    },
    async (req) => {
      const policies = assignablePolicyKeys(req.actor!).map(policyView);
      return { policies, count: policies.length };
    },
  );

  app.get(
    '/rbac/policies/:id',
    { schema: { tags, summary: 'A policy (its id is its key)', params: RoleIdParams, response: ok(PolicyEnvelope) } },
    async (req) => ({ policy: getPolicy(req.params.id) }),
  );

  app.get(
    '/rbac/policies/:id/roles',
    {
      schema: pageSchema(tags, 'The roles holding a policy', 'roles', RbacRole, {
        params: RoleIdParams,
        querystring: PageOnlyQuery,
      }),
    },
    async (req) => pageAnswer(req.query, (page) => listPolicyRoles(req.ctx, req.params.id, page)),
  );

  // Policies are what routes declare: Medusa's writes answer why they cannot be made here.
  const declared = async () => {
    throw errors.notAllowed('policy_declared_by_routes');
  };
  const refused = { tags, summary: 'Refused: policies are the permissions routes declare' };
  app.post('/rbac/policies', { schema: { ...refused, body: PolicyWriteBody, response: ok(PolicyEnvelope) } }, declared);
  app.post(
    '/rbac/policies/:id',
    { schema: { ...refused, params: RoleIdParams, body: PolicyWriteBody, response: ok(PolicyEnvelope) } },
    declared,
  );
  app.delete(
    '/rbac/policies/:id',
    { schema: { ...refused, params: RoleIdParams, response: ok(deletedEnvelope('rbac_policy')) } },
    declared,
  );
});
