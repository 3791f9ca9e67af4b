import { useApi } from '../../lib/api-hooks.ts';

export interface TeamUser {
  id: string;
  email: string;
  role: string;
  first_name: string | null;
  last_name: string | null;
  created_at: string;
}

export interface Role {
  id: string;
  name: string;
  description: string | null;
  permissions: string[];
  built_in: boolean;
}

export interface Invite {
  id: string;
  email: string;
  role: string;
  accepted: boolean;
  /** Only in the answer that issued it, and only when no email provider is installed. */
  token: string | null;
  expires_at: string;
  created_at: string;
}

/** Built-in and custom roles, shared by the users table, the invite form and the role grid. */
export function useRoles() {
  return useApi<{ roles: Role[] }>(['roles'], '/admin/roles');
}
