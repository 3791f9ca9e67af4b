import { Suspense, lazy, useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { setUnauthorizedHandler } from './lib/api.ts';
import { SESSION_KEY, SessionProvider, useSessionQuery } from './lib/session.tsx';
import { Shell } from './components/shell.tsx';
import { LoginPage } from './areas/login/login-page.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './areas/login/password-reset.tsx';
import { AcceptInvitePage } from './areas/login/accept-invite.tsx';
import { ErrorNote, Loading } from './components/ui.tsx';

// One chunk per area: the first load carries the shell and the login only.
const AREAS = {
  home: () => import('./areas/home/home-page.tsx'),
  products: () => import('./areas/products/index.tsx'),
  orders: () => import('./areas/orders/index.tsx'),
  'draft-orders': () => import('./areas/draft-orders/index.tsx'),
  customers: () => import('./areas/customers/index.tsx'),
  inventory: () => import('./areas/inventory/index.tsx'),
  'price-lists': () => import('./areas/price-lists/index.tsx'),
  promotions: () => import('./areas/promotions/index.tsx'),
  plugins: () => import('./areas/plugins/index.tsx'),
  marketplace: () => import('./areas/marketplace/index.tsx'),
  settings: () => import('./areas/settings/index.tsx'),
  notifications: () => import('./areas/notifications/notifications-page.tsx'),
  vendor: () => import('./areas/vendor/index.tsx'),
  'vendor-portal': () => import('./areas/vendor-portal/index.tsx'),
};
const Home = lazy(AREAS.home);
const Products = lazy(AREAS.products);
const Orders = lazy(AREAS.orders);
const DraftOrders = lazy(AREAS['draft-orders']);
const Customers = lazy(AREAS.customers);
const Inventory = lazy(AREAS.inventory);
const PriceLists = lazy(AREAS['price-lists']);
const Promotions = lazy(AREAS.promotions);
const Plugins = lazy(AREAS.plugins);
const Marketplace = lazy(AREAS.marketplace);
const Settings = lazy(AREAS.settings);
const Notifications = lazy(AREAS.notifications);
const Vendor = lazy(AREAS.vendor);
const VendorPortal = lazy(AREAS['vendor-portal']);

// The area of the page being opened starts loading now, alongside the session check, not after it.
const opening = window.location.pathname.replace(/^\/app\/?/, '').split('/')[0] || 'home';
if (opening in AREAS) void AREAS[opening as keyof typeof AREAS]().catch(() => {});

/** The login page, remembering the page the operator was on (and whether a session just ended). */
function loginTarget(pathname: string, search: string, expired = false): string {
  const here = pathname + search;
  const params = new URLSearchParams();
  if (!here.startsWith('/login') && here !== '/') params.set('next', here);
  if (expired) params.set('expired', '1');
  const query = params.toString();
  return query ? `/login?${query}` : '/login';
}

export function App() {
  const session = useSessionQuery();
  const navigate = useNavigate();
  const location = useLocation();
  const client = useQueryClient();

  useEffect(() => {
    // Any 401 (an expired token, a revoked session): drop everything cached and ask for a login.
    setUnauthorizedHandler(() => {
      const { pathname, search } = window.location;
      const inApp = pathname.replace(/^\/app/, '') || '/';
      client.clear();
      client.setQueryData(SESSION_KEY, null);
      navigate(loginTarget(inApp, search, true), { replace: true });
    });
  }, [client, navigate]);

  // Reachable signed in or not: the emailed link may be opened in a browser with a session.
  if (location.pathname === '/forgot-password') return <ForgotPasswordPage />;
  if (location.pathname === '/reset-password') return <ResetPasswordPage />;
  if (location.pathname === '/invite') return <AcceptInvitePage />;
  // A marketplace's vendors sign in with their API token, apart from the operators' session.
  if (location.pathname.startsWith('/vendor-portal') || location.pathname === '/vendor/verify')
    return (
      <Suspense fallback={<Loading />}>
        <VendorPortal />
      </Suspense>
    );
  if (session.isPending) return <Loading label="Loading the admin" />;
  if (session.isError)
    return (
      <main className="center">
        <ErrorNote error={session.error} />
      </main>
    );
  if (!session.data) {
    if (location.pathname === '/login') return <LoginPage />;
    return <Navigate to={loginTarget(location.pathname, location.search)} replace />;
  }
  if (location.pathname === '/login') {
    const next = new URLSearchParams(location.search).get('next');
    return <Navigate to={next?.startsWith('/') && !next.startsWith('//') ? next : '/'} replace />;
  }
  const vendor = session.data.instance.role === 'marketplace';
  return (
    <SessionProvider session={session.data}>
      <Shell>
        <Suspense fallback={<Loading />}>
          <Routes>
            <Route path="/" element={<Home />} />
            <Route path="/products/*" element={<Products />} />
            <Route path="/orders/*" element={<Orders />} />
            <Route path="/draft-orders/*" element={<DraftOrders />} />
            <Route path="/customers/*" element={<Customers />} />
            <Route path="/inventory/*" element={<Inventory />} />
            <Route path="/price-lists/*" element={<PriceLists />} />
            <Route path="/promotions/*" element={<Promotions />} />
            <Route path="/plugins/*" element={<Plugins />} />
            <Route path="/marketplace/*" element={<Marketplace />} />
            <Route path="/settings/*" element={<Settings />} />
            <Route path="/notifications" element={<Notifications />} />
            {vendor && <Route path="/vendor/*" element={<Vendor />} />}
            <Route
              path="*"
              element={
                <main className="page">
                  <h1>Page not found</h1>
                </main>
              }
            />
          </Routes>
        </Suspense>
      </Shell>
    </SessionProvider>
  );
}
