import { Type } from 'typebox';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';

export const EmailPassBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);

export const TokenResponse = Type.Object({ token: Type.String() });

export const User = Type.Object({
  id: Type.String(),
  email: Type.String(),
  // A built-in role's name (owner, admin, viewer, fulfilment, support) or a custom role's id.
  role: Type.String(),
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  avatar_url: Nullable(Type.String()),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});
