import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { ErrorNote, Field } from '../../components/ui.tsx';
import { ToastProvider } from '../../components/toasts.tsx';
import { Portal } from './portal.tsx';
import { VerifyPage } from './verify-page.tsx';
import { clearVendorToken, setVendorToken, vendorApi, vendorToken } from './vendor-api.ts';
import type { Vendor } from './vendor-types.ts';

/**
 * The vendor area of a marketplace's panel (`/app/vendor-portal`): a vendor signs in with one of
 * its API tokens and sees its items, versions and their review, installs and ratings, sales,
 * licences, subscriptions and payouts. `/app/vendor/verify` is where the emailed link lands.
 */
export default function VendorPortal() {
  const location = useLocation();
  const [token, setToken] = useState(vendorToken());
  const signIn = (t: string) => {
    setVendorToken(t);
    setToken(t);
  };
  if (location.pathname === '/vendor/verify') return <VerifyPage onSignIn={signIn} />;
  const signOut = () => {
    clearVendorToken();
    setToken(null);
  };
  return <ToastProvider>{token ? <Portal onSignOut={signOut} /> : <SignIn onSignIn={signIn} />}</ToastProvider>;
}

function SignIn({ onSignIn }: { onSignIn: (token: string) => void }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const token = String(new FormData(e.currentTarget).get('token') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      setVendorToken(token);
      await vendorApi<{ vendor: Vendor }>('/admin/marketplace/vendor');
      onSignIn(token);
    } catch (err) {
      clearVendorToken();
      setError(
        err instanceof ApiError && (err.status === 401 || err.status === 403)
          ? new ApiError(err.status, err.type, 'This token is unknown, revoked, or lacks the read scope.', 'token')
          : err,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="login">
      <form className="card login-card" onSubmit={submit} aria-label="Vendor sign-in">
        <h1>Vendor sign-in</h1>
        <p className="muted">
          Sign in with one of your vendor API tokens (<code>mvk_…</code>): the one shown when you verified your address,
          or one you made since with the <code>read</code> scope.
        </p>
        <Field label="API token" name="token" type="password" autoComplete="off" required error={error} />
        {error && !(error instanceof ApiError && error.field === 'token') ? <ErrorNote error={error} /> : null}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
