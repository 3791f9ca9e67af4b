import { errors } from '../../platform/http/errors.ts';
import { grants } from '../../platform/http/permissions.ts';
import type { Actor } from '../../platform/context.ts';
import { permissionCatalog } from './roles-service.ts';

/**
 * Medusa's RBAC policies over our permissions: a policy is a permission pattern
 * (`<resource>:<action>`, either may be `*`), and its id is its key. The policies are the
 * permissions routes declare (roles-service's catalog) and the wildcards over them; they are not
 * stored, so they have no dates, and none can be made or deleted through the API.
 */
export interface PolicyView {
  id: string;
  key: string;
  resource: string;
  operation: string;
  name: string | null;
  description: string | null;
  metadata: null;
  created_at: null;
  updated_at: null;
  deleted_at: null;
}

/** Owners' pattern: everything, also routes that declare nothing. Shown on the owner role, never assignable. */
const OWNER = '*';

function describe(resource: string, operation: string): string | null {
  if (resource === '*' && operation === '*') return 'Every permission any route declares';
  if (resource === '*') return `${operation} on every resource`;
  if (operation === '*') return `Every action on ${resource}`;
  return null;
}

export function policyView(key: string): PolicyView {
  const [resource, operation] = key === OWNER ? ['*', '*'] : key.split(':');
  return {
    id: key,
    key,
    resource,
    operation,
    name: key === OWNER ? 'Owner' : key,
    description: key === OWNER ? 'Everything, including the routes only owners may use' : describe(resource, operation),
    metadata: null,
    created_at: null,
    updated_at: null,
    deleted_at: null,
  };
}

/** Every policy: the declared permissions, then `*:*`, `*:<action>` and `<resource>:*` over them; sorted. */
export function policyKeys(): string[] {
  const declared = permissionCatalog();
  const keys = new Set(['*:*']);
  for (const p of declared) {
    keys.add(p.id);
    keys.add(`*:${p.action}`);
    keys.add(`${p.resource}:*`);
  }
  return [...keys].sort();
}

export function getPolicy(id: string): PolicyView {
  if (id !== OWNER && !policyKeys().includes(id)) throw errors.notFound('policy_not_found', { id });
  return policyView(id);
}

/**
 * The policies an actor may put into a role: those its own patterns grant (`grants` reads a
 * wildcard key literally, so `orders:*` needs `orders:*` or `*:*`), as roles-service checks.
 */
export function assignablePolicyKeys(actor: Pick<Actor, 'permissions'>): string[] {
  return policyKeys().filter((key) => grants(actor.permissions, key));
}

export interface PolicyFilter {
  q?: string;
  id?: string[];
  key?: string[];
  resource?: string[];
  operation?: string[];
}

export function matchesPolicy(p: PolicyView, f: PolicyFilter): boolean {
  return (
    (!f.q || p.key.includes(f.q.toLowerCase())) &&
    (!f.id || f.id.includes(p.id)) &&
    (!f.key || f.key.includes(p.key)) &&
    (!f.resource || f.resource.includes(p.resource)) &&
    (!f.operation || f.operation.includes(p.operation))
  );
}
