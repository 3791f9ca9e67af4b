import { Type } from 'typebox';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^@\\s]+@[^@\\s]+$' });
const RoleId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'a built-in role (owner, admin, viewer, fulfilment, support) or a custom role id',
});
const Permission = Type.String({ minLength: 3, maxLength: 100, description: '<resource>:<action>, either may be *' });

export const UpdateUserBody = Type.Object(
  {
    first_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    last_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    avatar_url: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    metadata: Type.Optional(Metadata),
    role: Type.Optional(RoleId),
  },
  { additionalProperties: false },
);

/** What a user may change of themself: not their role. */
export const UpdateMeBody = Type.Object(
  {
    first_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    last_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    avatar_url: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const Role = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  permissions: Type.Array(Type.String()),
  built_in: Type.Boolean(),
  created_at: NullableTimestamp,
  updated_at: NullableTimestamp,
});

export const CreateRoleBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    permissions: Type.Array(Permission, { maxItems: 200 }),
  },
  { additionalProperties: false },
);

export const UpdateRoleBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    permissions: Type.Optional(Type.Array(Permission, { maxItems: 200 })),
  },
  { additionalProperties: false },
);

export const PermissionEntry = Type.Object({ id: Type.String(), resource: Type.String(), action: Type.String() });

export const Invite = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  accepted: Type.Boolean(),
  token: Nullable(Type.String({ description: 'only when just issued and no email provider is installed' })),
  expires_at: Timestamp,
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreateInviteBody = Type.Object(
  { email: Email, role: Type.Optional(RoleId), metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);

export const InviteListQuery = Type.Object({ email: Type.Optional(Type.String({ maxLength: 320 })) });

export const AcceptInviteQuery = Type.Object({ token: Type.String({ minLength: 10, maxLength: 200 }) });

export const AcceptInviteBody = Type.Object(
  {
    // Medusa's body; the email is the invite's, whatever is sent.
    email: Type.Optional(Nullable(Type.String({ maxLength: 320 }))),
    first_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    last_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    password: Type.String({ minLength: 8, maxLength: 1024, description: 'the new user’s password' }),
  },
  { additionalProperties: false },
);
