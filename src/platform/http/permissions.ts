import type { RouteOptions } from 'fastify';
import type { App, RouteModule } from './types.ts';

/**
 * Every admin route names the permission it needs, `<resource>:<action>`: a route module states
 * its resource once (`adminResource('orders', routes)`), the action follows from the method
 * (GET and HEAD read, anything else writes), and a route may name its own in `config`
 * (`config: { action: 'refund' }` → `orders:refund`, or `config: { permission: 'team:write' }`).
 * The permission is copied into the route schema as `x-permission`, so /openapi.json shows it.
 * A route that names nothing is open to owners only: forgetting costs access, never safety.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The full permission (`team:write`), or `self` for what any signed-in admin may do to themself. */
    permission?: string;
    /** The action on the module's resource (`refund`), instead of the method's read/write. */
    action?: string;
  }
}

/** Needs no permission beyond being signed in (the caller's own profile). */
export const SELF = 'self';

/** Needs no sign-in at all: the route checks its caller by other means (a signature, an invite token, a login). */
export const PUBLIC = 'public';

/** Every `<resource>:<action>` some route declared: what custom roles may be made of (the panel's grid). */
export const declaredPermissions = new Set<string>();

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const actionOfMethod = (method: string) => (READ_METHODS.has(method) ? 'read' : 'write');

/** Wraps a route module so each of its routes is stamped with `<resource>:<action>` unless it names its own. */
export function adminResource(resource: string, routes: RouteModule): RouteModule {
  return async (app, deps) => {
    await app.register(async (scope) => {
      scope.addHook('onRoute', (route) => stamp(route, resource));
      await routes(scope, deps);
    });
  };
}

function stamp(route: RouteOptions, resource?: string): void {
  const config = (route.config ?? {}) as { permission?: string; action?: string };
  const methods = [route.method].flat();
  const method = methods[0];
  if (resource && !config.permission && !config.action && new Set(methods.map(actionOfMethod)).size > 1)
    throw new Error(
      `${route.url}: a route that both reads and writes must name its permission, or be split per method`,
    );
  const permission =
    config.permission ?? (resource ? `${resource}:${config.action ?? actionOfMethod(method)}` : undefined);
  if (!permission) return;
  if (permission !== SELF && permission !== PUBLIC) declaredPermissions.add(permission);
  route.config = { ...config, permission } as RouteOptions['config'];
  route.schema = { ...(route.schema ?? {}), 'x-permission': permission } as RouteOptions['schema'];
}

/**
 * For the whole app: a route outside any `adminResource` that names its permission in `config`
 * (the panel's login, a signed callback) shows it in /openapi.json as well.
 */
export function stampDeclaredPermissions(app: App) {
  app.addHook('onRoute', (route) => stamp(route as RouteOptions));
}

/**
 * Whether a role's permission patterns grant a permission. Patterns: `*` (everything, also
 * routes that declare nothing: owners), `*:*` (every declared permission), `*:read`,
 * `orders:*`, `orders:refund`. `undefined` is a route that declared nothing.
 */
export function grants(patterns: readonly string[], permission: string | undefined): boolean {
  if (patterns.includes('*')) return true;
  if (permission === undefined) return false;
  if (permission === SELF || permission === PUBLIC) return true;
  const [resource, action] = permission.split(':');
  return patterns.some((p) => {
    const [r, a] = p.split(':');
    return (r === '*' || r === resource) && (a === '*' || a === action);
  });
}
