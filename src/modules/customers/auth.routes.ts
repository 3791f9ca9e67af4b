import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { sharedLoginLimiter } from '../auth/login-limiter.ts';
import { EmailPassBody, TokenResponse } from '../auth/schema.ts';
import { bearerToken, tokenKeys } from '../auth/tokens.ts';
import { requestPasswordReset, updatePasswordWithToken } from '../auth/password-reset.ts';
import { ResetPasswordBody, UpdatePasswordBody, UpdatePasswordResponse } from '../auth/reset-schema.ts';
import { invalidResetToken } from '../auth/reset-tokens.ts';
import { loginCustomer, registerCustomer } from './auth-service.ts';
import { findIdentityByEmail, setIdentityPasswordHash } from './queries.ts';
import { RegisterBody } from './schema.ts';

const tags = ['auth'];

export const customerAuthRoutes: RouteModule = (app, deps) => {
  const auth = {
    keys: tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds, deps.config.jwtSecretPrevious),
    limiter: sharedLoginLimiter(app, deps),
  };

  app.post(
    '/customer/emailpass/register',
    {
      schema: {
        tags,
        summary: 'Register a customer login (token with an empty actor_id)',
        body: RegisterBody,
        response: ok(TokenResponse),
      },
    },
    async (req) => ({ token: await registerCustomer(req.ctx, auth, { ...req.body, ip: req.ip }) }),
  );

  app.post(
    '/customer/emailpass',
    { schema: { tags, summary: 'Customer login', body: EmailPassBody, response: ok(TokenResponse) } },
    async (req) => ({ token: await loginCustomer(req.ctx, auth, { ...req.body, ip: req.ip }) }),
  );

  app.post(
    '/customer/emailpass/reset-password',
    {
      schema: {
        tags,
        summary: 'Email a shopper a password reset link (201 whether the email is known or not)',
        body: ResetPasswordBody,
      },
    },
    async (req, reply) => {
      const email = req.body.identifier;
      const identity = await findIdentityByEmail(req.ctx.db, email);
      await requestPasswordReset(
        req.ctx,
        { providers: app.providers, encryptionKey: deps.config.encryptionKey, limiter: auth.limiter },
        {
          actor: 'customer',
          email,
          ip: req.ip,
          identity: identity && { id: identity.id, email: identity.email },
          link: (token, to) =>
            `${deps.config.storefrontUrl}/reset-password?token=${token}&email=${encodeURIComponent(to)}`,
        },
      );
      return reply.status(201).type('text/plain').send('Created');
    },
  );

  app.post(
    '/customer/emailpass/update',
    {
      schema: {
        tags,
        summary: 'Set a new password with the emailed token (Authorization: Bearer <token>)',
        body: UpdatePasswordBody,
        response: ok(UpdatePasswordResponse),
      },
    },
    async (req) => {
      const token = bearerToken(req.headers.authorization);
      if (!token) throw invalidResetToken();
      return updatePasswordWithToken(req.ctx, 'customer', token, req.body.password, (tctx, id, hash) =>
        setIdentityPasswordHash(tctx.tx, id, hash, tctx.clock.now()),
      );
    },
  );
};
