/**
 * The built-in roles and their permission patterns (permissions.ts says how patterns match).
 * `admin` and `viewer` keep their old meaning: everything declared, and every read. Owners hold
 * `*`, which also opens routes that declare nothing, and only owners make or unmake owners.
 */
export const BUILT_IN_ROLES = {
  owner: { name: 'Owner', description: 'Everything, including the team and its owners', permissions: ['*'] },
  admin: { name: 'Admin', description: 'Everything but making or removing owners', permissions: ['*:*'] },
  viewer: { name: 'Viewer', description: 'Reads everything, changes nothing', permissions: ['*:read'] },
  fulfilment: {
    name: 'Fulfilment',
    description: 'Ships orders: orders and stock read and write, products and customers read',
    permissions: [
      'orders:read',
      'orders:write',
      'inventory:read',
      'inventory:write',
      'products:read',
      'customers:read',
      'dashboard:read',
      'jobs:read',
    ],
  },
  support: {
    name: 'Support',
    description: 'Helps customers: customers read and write, orders read and refund',
    permissions: [
      'customers:read',
      'customers:write',
      'orders:read',
      'orders:refund',
      'products:read',
      'dashboard:read',
      'jobs:read',
    ],
  },
} as const satisfies Record<string, { name: string; description: string; permissions: string[] }>;

export type BuiltInRole = keyof typeof BUILT_IN_ROLES;

export const isBuiltInRole = (role: string): role is BuiltInRole => Object.hasOwn(BUILT_IN_ROLES, role);

/** A role's patterns: the built-in table's, else the custom role's stored ones, else none. */
export function permissionsOf(role: string, custom: string[] | null | undefined): readonly string[] {
  if (isBuiltInRole(role)) return BUILT_IN_ROLES[role].permissions;
  return custom ?? [];
}
