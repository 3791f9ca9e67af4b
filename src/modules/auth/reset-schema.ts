import { Type } from 'typebox';

/** Medusa's `POST /auth/{actor}/emailpass/reset-password` body. */
export const ResetPasswordBody = Type.Object(
  {
    identifier: Type.String({ minLength: 1, maxLength: 320, description: 'the email of the login' }),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

/** Medusa's `POST /auth/{actor}/emailpass/update` body (the token comes as `Authorization: Bearer`). */
export const UpdatePasswordBody = Type.Object(
  {
    password: Type.String({ minLength: 8, maxLength: 1024 }),
    email: Type.Optional(Type.String({ maxLength: 320 })),
  },
  { additionalProperties: false },
);

export const UpdatePasswordResponse = Type.Object({ success: Type.Literal(true) });
