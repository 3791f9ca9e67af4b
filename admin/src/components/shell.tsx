import type { ReactNode } from 'react';

import { NavLink, useNavigate } from 'react-router';

import { safeMode } from '../lib/safe-mode.ts';
import { useLogout, useSession } from '../lib/session.tsx';
import { ToastProvider } from './toasts.tsx';
import type { Ok } from '../api/types.ts';
import { useApi } from '../lib/api-hooks.ts';

type Unread = Pick<Ok<'/admin/notifications'>, 'count'>;

export const UNREAD_KEY = ['notifications', 'unread-count'] as const;

/** The bell: how many notifications are unread, refreshed every 30 s and after marking read. */
function Bell() {
  const unread = useApi<Unread>(
    UNREAD_KEY,
    '/admin/notifications',
    { read: false, limit: 0 },
    { refetchInterval: 30_000 },
  );
  const n = unread.data?.count ?? 0;
  return (
    <NavLink to="/notifications" className="bell" aria-label={n ? `Notifications, ${n} unread` : 'Notifications'}>
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
          fill="currentColor"
        />
      </svg>
      {n > 0 && <span className="bell-count">{n > 99 ? '99+' : n}</span>}
    </NavLink>
  );
}

const SHOP_AREAS: [string, string][] = [
  ['/', 'Home'],
  ['/orders', 'Orders'],
  ['/draft-orders', 'Draft orders'],
  ['/products', 'Products'],
  ['/inventory', 'Inventory'],
  ['/customers', 'Customers'],
  ['/price-lists', 'Price lists'],
  ['/promotions', 'Promotions'],
  ['/plugins', 'Plugins'],
  ['/marketplace', 'Marketplace'],
  ['/settings', 'Settings'],
];

const VENDOR_AREAS: [string, string][] = [
  ['/vendor/items', 'Catalog items'],
  ['/vendor/licenses', 'Licenses'],
  ['/vendor/checkouts', 'Checkout sessions'],
];

export function Shell({ children }: { children: ReactNode }) {
  const { user, instance, role_name } = useSession();
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <ToastProvider>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <div className="shell">
        <aside className="sidebar">
          <div className="brand">
            <img src="/app/favicon.svg" alt="" width="24" height="24" /> Emporium
            {instance.role === 'marketplace' && <span className="badge badge-info">marketplace</span>}
          </div>
          <nav aria-label="Areas">
            <ul>
              {SHOP_AREAS.map(([to, label]) => (
                <li key={to}>
                  <NavLink to={to} end={to === '/'}>
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
            {instance.role === 'marketplace' && (
              <>
                <h2 className="nav-group">Vendor</h2>
                <ul>
                  {VENDOR_AREAS.map(([to, label]) => (
                    <li key={to}>
                      <NavLink to={to}>{label}</NavLink>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </nav>
        </aside>
        <div className="main-col">
          <header className="topbar">
            {safeMode && (
              <span className="badge badge-warn" title="Extensions are not loaded (safe mode)">
                Safe mode
              </span>
            )}
            <span className="spacer" />
            <Bell />
            <span className="who">
              {user.email}{' '}
              <span
                className={`badge ${user.role === 'owner' || user.role === 'admin' ? 'badge-info' : 'badge-muted'}`}
              >
                {role_name ?? user.role}
              </span>
            </span>
            <button
              type="button"
              className="btn btn-small"
              onClick={async () => {
                await logout();
                navigate('/login', { replace: true });
              }}
            >
              Log out
            </button>
          </header>
          <main id="main" className="page" tabIndex={-1}>
            {children}
          </main>
        </div>
      </div>
    </ToastProvider>
  );
}
