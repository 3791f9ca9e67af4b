import { Type } from 'typebox';

/** The decoded token a session was made from (Medusa answers it under `user`, for customers too). */
export const SessionClaims = Type.Object(
  {
    actor_id: Type.String(),
    actor_type: Type.String(),
    auth_identity_id: Type.String(),
    auth_provider: Type.String(),
    app_metadata: Type.Record(Type.String(), Type.Unknown()),
    user_metadata: Type.Record(Type.String(), Type.Unknown()),
    iat: Type.Optional(Type.Integer()),
    exp: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);

export const SessionResponse = Type.Object({ user: SessionClaims });

export const SessionEnded = Type.Object({ success: Type.Literal(true) });
