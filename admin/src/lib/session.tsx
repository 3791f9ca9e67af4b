import { createContext, useContext, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, setCsrfToken } from './api.ts';

export interface User {
  id: string;
  email: string;
  /** A built-in role (owner, admin, viewer, fulfilment, support) or a custom role's id. */
  role: string;
  first_name: string | null;
  last_name: string | null;
}

export interface PanelSession {
  user: User;
  /** The role's permission patterns: `*` (owner), `*:*`, `*:read`, `orders:refund`. */
  permissions: string[];
  csrf_token: string;
  instance: { role: 'shop' | 'marketplace'; federated: boolean };
}

export const SESSION_KEY = ['panel-session'] as const;

/** Who is signed in (null: nobody). One call at boot; the login form fills it too. */
export async function fetchSession(): Promise<PanelSession | null> {
  try {
    const session = await api<PanelSession>('/admin/panel/session', { quiet401: true });
    setCsrfToken(session.csrf_token);
    return session;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

const SessionContext = createContext<PanelSession | null>(null);

export function SessionProvider({ session, children }: { session: PanelSession; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): PanelSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

/** Whether the role's patterns grant `<resource>:<action>` (the server's rule, platform/http/permissions.ts). */
export function grants(patterns: readonly string[], permission: string): boolean {
  if (patterns.includes('*')) return true;
  const [resource, action] = permission.split(':');
  return patterns.some((p) => {
    const [r, a] = p.split(':');
    return (r === '*' || r === resource) && (a === '*' || a === action);
  });
}

/** Whether the signed-in role may do this; controls it may not use are not rendered (the API refuses anyway). */
export function useCan(permission: string): boolean {
  return grants(useSession().permissions ?? [], permission);
}

/** Read-only roles see every area read-only: write controls are not rendered (the API refuses anyway). */
export function useCanWrite(): boolean {
  const { permissions = [] } = useSession();
  return permissions.includes('*') || permissions.includes('*:*');
}

export function useSessionQuery() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: Infinity, retry: 1 });
}

/** Logs out: the server revokes the session and clears the cookies; every cached answer goes too. */
export function useLogout() {
  const client = useQueryClient();
  return async () => {
    try {
      await api('/admin/panel/session', { method: 'DELETE', quiet401: true });
    } finally {
      setCsrfToken('');
      client.clear();
      client.setQueryData(SESSION_KEY, null);
    }
  };
}
