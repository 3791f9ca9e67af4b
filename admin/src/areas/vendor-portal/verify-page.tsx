import { useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api.ts';
import { ErrorNote, Loading } from '../../components/ui.tsx';

interface Verified {
  vendor: { name: string; namespaces: string[] };
  token: { token: string };
}

/** Where the emailed link lands: activates the account once and shows its first token, this one time. */
export function VerifyPage({ onSignIn }: { onSignIn: (token: string) => void }) {
  const [state, setState] = useState<{ done?: Verified; error?: unknown }>({});
  const once = useRef(false);
  useEffect(() => {
    if (once.current) return;
    once.current = true;
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    api<Verified>('/store/marketplace/vendors/verify', { method: 'POST', body: { token }, quiet401: true })
      .then((done) => setState({ done }))
      .catch((error) => setState({ error }));
  }, []);
  if (state.error)
    return (
      <main className="login">
        <div className="card login-card">
          <h1>Verification failed</h1>
          <ErrorNote error={state.error} />
        </div>
      </main>
    );
  if (!state.done) return <Loading label="Verifying your address" />;
  const { vendor, token } = state.done;
  return (
    <main className="login">
      <div className="card login-card">
        <h1>Welcome, {vendor.name}</h1>
        <p>
          Your address is verified and {vendor.namespaces.join(', ')} is yours. This is your first API token; it is
          shown this once, so keep it somewhere safe (your CI uses it to publish):
        </p>
        <input className="token" readOnly value={token.token} aria-label="Your API token" />
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            onSignIn(token.token);
            window.history.replaceState(null, '', '/app/vendor-portal');
            window.location.reload();
          }}
        >
          Open the vendor area
        </button>
      </div>
    </main>
  );
}
