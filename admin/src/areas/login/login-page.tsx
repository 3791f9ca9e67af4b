import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError, api, setCsrfToken } from '../../lib/api.ts';
import { SESSION_KEY, type PanelSession } from '../../lib/session.tsx';
import { ErrorNote, Field } from '../../components/ui.tsx';

/** The login form: posts to the panel session route, which sets the HTTP-only cookies. */
export function LoginPage() {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const expired = new URLSearchParams(window.location.search).has('expired');

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const session = await api<PanelSession>('/admin/panel/session', {
        method: 'POST',
        quiet401: true,
        body: { email: form.get('email'), password: form.get('password') },
      });
      setCsrfToken(session.csrf_token);
      client.setQueryData(SESSION_KEY, session);
    } catch (err) {
      setError(err instanceof ApiError && err.status === 401 ? new Error('Wrong email or password.') : err);
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <form className="card login-card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">
          <img src="/app/favicon.svg" alt="" width="28" height="28" /> Sign in to Emporium
        </h1>
        {expired && !error && (
          <p className="note note-info">Your session has ended. Sign in to go back to the page you were on.</p>
        )}
        <Field label="Email" name="email" type="email" autoComplete="username" required autoFocus />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <ErrorNote error={error} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="login-extra">
          <Link to="/forgot-password">Forgot password?</Link>
        </p>
      </form>
    </main>
  );
}
