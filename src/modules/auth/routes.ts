import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { Type } from 'typebox';
import { sharedLoginLimiter } from './login-limiter.ts';
import { EmailPassBody, TokenResponse, User } from './schema.ts';
import { getUser, loginUser } from './service.ts';
import { tokenKeys } from './tokens.ts';

export const authUserRoutes: RouteModule = (app, deps) => {
  const keys = tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds);
  const limiter = sharedLoginLimiter(app, deps);

  app.post(
    '/user/emailpass',
    { schema: { summary: 'Admin login', body: EmailPassBody, response: ok(TokenResponse) } },
    async (req) => ({ token: await loginUser(req.ctx, { keys, limiter }, { ...req.body, ip: req.ip }) }),
  );
};

export const adminUserRoutes: RouteModule = (app) => {
  app.get('/users/me', { schema: { summary: 'The signed-in admin user', response: ok(Type.Object({ user: User })) } }, async (req) => {
    return { user: await getUser(req.ctx, req.actor!.id) };
  });
};
