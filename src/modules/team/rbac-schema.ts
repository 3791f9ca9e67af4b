import { Type } from 'typebox';
import { pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, NullableTimestamp } from '../../platform/http/schema-types.ts';

/** Medusa's RBAC shapes (`@medusajs/types` http/rbac) over our roles and permissions (rbac-service.ts). */

const Ids = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 200 });
/** A query field sent once (`id=a`) or repeated (`id[]=a&id[]=b`): always an array after coercion. */
const QueryIds = Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 }));

export const RbacPolicy = Type.Object({
  id: Type.String({ description: 'the key: a policy is a permission pattern' }),
  key: Type.String({ description: '<resource>:<operation>, either may be *' }),
  resource: Type.String(),
  operation: Type.String(),
  name: Nullable(Type.String()),
  description: Nullable(Type.String()),
  metadata: Type.Null(),
  created_at: Type.Null({ description: 'policies are declared by routes, not stored' }),
  updated_at: Type.Null(),
  deleted_at: Type.Null(),
});

export const RbacRole = Type.Object({
  id: Type.String({ description: 'a built-in role (owner, admin, viewer, fulfilment, support) or a custom role id' }),
  name: Type.String(),
  description: Nullable(Type.String()),
  parent_id: Type.Null({ description: 'roles do not inherit' }),
  metadata: Type.Null(),
  policies: Type.Array(RbacPolicy),
  built_in: Type.Boolean(),
  created_at: NullableTimestamp,
  updated_at: NullableTimestamp,
  deleted_at: Type.Null(),
});

export const RoleListQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  id: QueryIds,
  name: QueryIds,
});

export const PolicyListQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  id: QueryIds,
  key: QueryIds,
  resource: QueryIds,
  operation: QueryIds,
});

export const RoleUserListQuery = Type.Object({ ...pageQuery(50), user_id: QueryIds });
export const UserRoleListQuery = Type.Object({ ...pageQuery(50), role_id: QueryIds });
export const PageOnlyQuery = Type.Object(pageQuery(50));

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.Optional(Nullable(Type.String({ maxLength: 1000 })));
const ParentId = Type.Optional(
  Nullable(Type.String({ maxLength: 200, description: 'must be null: roles do not inherit' })),
);
const RoleMetadata = Type.Optional(Type.Union([Metadata], { description: 'must be empty: roles keep no metadata' }));

export const CreateRbacRoleBody = Type.Object(
  { name: Name, description: Description, parent_id: ParentId, metadata: RoleMetadata, policy_ids: Type.Optional(Ids) },
  { additionalProperties: false },
);

export const UpdateRbacRoleBody = Type.Object(
  { name: Type.Optional(Name), description: Description, parent_id: ParentId, metadata: RoleMetadata },
  { additionalProperties: false },
);

export const RolePoliciesBody = Type.Object({ policies: Ids }, { additionalProperties: false });
export const RoleUsersBody = Type.Object({ users: Ids }, { additionalProperties: false });
export const UserRolesBody = Type.Object({ roles: Ids }, { additionalProperties: false });

/** Policies are declared by routes: the create and update bodies are accepted only to be refused. */
export const PolicyWriteBody = Type.Object({
  key: Type.Optional(Type.String({ maxLength: 200 })),
  resource: Type.Optional(Type.String({ maxLength: 200 })),
  operation: Type.Optional(Type.String({ maxLength: 200 })),
});

export const RoleIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const RolePolicyParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  policy_id: Type.String({ minLength: 1, maxLength: 200 }),
});
export const UserRoleParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  role_id: Type.String({ minLength: 1, maxLength: 200 }),
});

export const AssignableRole = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
});
export const AssignablePolicy = Type.Object({
  id: Type.String(),
  key: Type.String(),
  resource: Type.String(),
  operation: Type.String(),
  description: Nullable(Type.String()),
});

export const BatchDeleted = (object: string) =>
  Type.Object({ ids: Type.Array(Type.String()), object: Type.Literal(object), deleted: Type.Literal(true) });
