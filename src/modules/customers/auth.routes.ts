import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { sharedLoginLimiter } from '../auth/login-limiter.ts';
import { EmailPassBody, TokenResponse } from '../auth/schema.ts';
import { tokenKeys } from '../auth/tokens.ts';
import { loginCustomer, registerCustomer } from './auth-service.ts';
import { RegisterBody } from './schema.ts';

const tags = ['auth'];

export const customerAuthRoutes: RouteModule = (app, deps) => {
  const auth = { keys: tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds), limiter: sharedLoginLimiter(app, deps) };

  app.post(
    '/customer/emailpass/register',
    { schema: { tags, summary: 'Register a customer login (token with an empty actor_id)', body: RegisterBody, response: ok(TokenResponse) } },
    async (req) => ({ token: await registerCustomer(req.ctx, auth, { ...req.body, ip: req.ip }) }),
  );

  app.post(
    '/customer/emailpass',
    { schema: { tags, summary: 'Customer login', body: EmailPassBody, response: ok(TokenResponse) } },
    async (req) => ({ token: await loginCustomer(req.ctx, auth, { ...req.body, ip: req.ip }) }),
  );
};
