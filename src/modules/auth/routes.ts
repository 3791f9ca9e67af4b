import { Type } from 'typebox';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { sharedLoginLimiter } from './login-limiter.ts';
import { EmailPassBody, TokenResponse } from './schema.ts';
import { loginUser } from './service.ts';
import { bearerToken, tokenKeys } from './tokens.ts';
import { findLiveUserByEmail, setUserPasswordHash } from './queries.ts';
import { requestPasswordReset, updatePasswordWithToken } from './password-reset.ts';
import { ResetPasswordBody, UpdatePasswordBody, UpdatePasswordResponse } from './reset-schema.ts';
import { invalidResetToken } from './reset-tokens.ts';

export const authUserRoutes: RouteModule = (app, deps) => {
  const keys = tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds, deps.config.jwtSecretPrevious);
  const limiter = sharedLoginLimiter(app, deps);

  app.post(
    '/user/emailpass',
    { schema: { summary: 'Admin login', body: EmailPassBody, response: ok(TokenResponse) } },
    async (req) => ({ token: await loginUser(req.ctx, { keys, limiter }, { ...req.body, ip: req.ip }) }),
  );

  app.get(
    '/:actor/providers',
    {
      schema: {
        summary: 'How an actor signs in (Medusa’s public provider list): email and password',
        params: Type.Object({ actor: Type.Union([Type.Literal('user'), Type.Literal('customer')]) }),
        response: ok(
          Type.Object({
            providers: Type.Array(
              Type.Object({
                id: Type.String(),
                identifier: Type.String(),
                display_name: Type.String(),
                flow: Type.Union([Type.Literal('credentials'), Type.Literal('redirect')]),
              }),
            ),
          }),
        ),
      },
    },
    async () => ({
      providers: [
        { id: 'emailpass', identifier: 'emailpass', display_name: 'Email and password', flow: 'credentials' as const },
      ],
    }),
  );

  app.post(
    '/user/emailpass/reset-password',
    {
      schema: {
        summary: 'Email an admin a password reset link (201 whether the email is known or not)',
        body: ResetPasswordBody,
      },
    },
    async (req, reply) => {
      const email = req.body.identifier;
      const user = await findLiveUserByEmail(req.ctx.db, email);
      await requestPasswordReset(
        req.ctx,
        { providers: app.providers, encryptionKey: deps.config.encryptionKey, limiter },
        {
          actor: 'user',
          email,
          ip: req.ip,
          identity: user && { id: user.id, email: user.email },
          link: (token, to) =>
            `${deps.config.publicUrl}/app/reset-password?token=${token}&email=${encodeURIComponent(to)}`,
        },
      );
      return reply.status(201).type('text/plain').send('Created');
    },
  );

  app.post(
    '/user/emailpass/update',
    {
      schema: {
        summary: 'Set a new admin password with the emailed token (Authorization: Bearer <token>)',
        body: UpdatePasswordBody,
        response: ok(UpdatePasswordResponse),
      },
    },
    async (req) => {
      const token = bearerToken(req.headers.authorization);
      if (!token) throw invalidResetToken();
      return updatePasswordWithToken(req.ctx, 'user', token, req.body.password, (tctx, id, hash) =>
        setUserPasswordHash(tctx.tx, id, hash, tctx.clock.now()),
      );
    },
  );
};
