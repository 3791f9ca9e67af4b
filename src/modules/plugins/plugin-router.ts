import type { HttpMethod, RouteHandler } from '../../../plugin-sdk/index.ts';

export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface Route {
  method: HttpMethod;
  segments: string[];
  handler: RouteHandler;
}

export interface RouteMatch {
  handler: RouteHandler;
  params: Record<string, string>;
}

function split(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/**
 * One plugin's routes on one surface: literal segments and `:name` parameters, first
 * registered wins. Small on purpose: a plugin has a handful of routes, matched in order.
 */
export class PluginRouter {
  private routes: Route[] = [];

  add(method: string, path: string, handler: RouteHandler): void {
    if (!HTTP_METHODS.includes(method as HttpMethod))
      throw new Error(`Unsupported method "${method}"; use one of ${HTTP_METHODS.join(', ')}`);
    if (typeof path !== 'string' || !path.startsWith('/') || /[?#*\\]/.test(path))
      throw new Error(`Route path must start with "/" and hold no ?, #, * or \\, got "${path}"`);
    if (typeof handler !== 'function') throw new Error(`Route ${method} ${path} has no handler function`);
    const segments = split(path);
    if (segments.some((s) => s === ':' || (s.startsWith(':') && !/^:[A-Za-z_][A-Za-z0-9_]*$/.test(s))))
      throw new Error(`Route path "${path}" has a bad :parameter`);
    this.routes.push({ method: method as HttpMethod, segments, handler });
  }

  /** What was registered, in order (the marketplace's test install calls the plain GET routes). */
  list(): { method: HttpMethod; path: string; handler: RouteHandler }[] {
    return this.routes.map((r) => ({ method: r.method, path: `/${r.segments.join('/')}`, handler: r.handler }));
  }

  match(method: string, path: string): RouteMatch | null {
    const parts = split(path);
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = route.segments[i];
        if (seg.startsWith(':')) {
          try {
            params[seg.slice(1)] = decodeURIComponent(parts[i]);
          } catch {
            ok = false;
          }
        } else ok = seg === parts[i];
      }
      if (ok) return { handler: route.handler, params };
    }
    return null;
  }
}
