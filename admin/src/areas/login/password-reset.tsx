import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError, api } from '../../lib/api.ts';
import { ErrorNote, Field } from '../../components/ui.tsx';

export function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="login">
      <div className="card login-card">
        <h1 id="auth-title">
          <img src="/app/favicon.svg" alt="" width="28" height="28" /> {title}
        </h1>
        {children}
      </div>
    </main>
  );
}

/** The new password as typed twice, or the error the second field shows when the two differ. */
export function newPassword(form: FormData): string | ApiError {
  const password = String(form.get('password') ?? '');
  return password === form.get('confirm')
    ? password
    : new ApiError(400, 'invalid_data', 'The two passwords differ.', 'confirm');
}

/** A new password (at least 8 characters) and its repetition: the reset link's page and the invite's. */
export function NewPasswordFields({
  labels: [first, again],
  autoFocus,
  error,
}: {
  labels: [string, string];
  autoFocus?: boolean;
  error: unknown;
}) {
  return (
    <>
      <Field
        label={first}
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        required
        autoFocus={autoFocus}
        hint="At least 8 characters."
        error={error}
      />
      <Field label={again} name="confirm" type="password" autoComplete="new-password" required error={error} />
    </>
  );
}

/** Asks for a reset link (`POST /auth/user/emailpass/reset-password`); the answer never says whether the email is known. */
export function ForgotPasswordPage() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const identifier = String(new FormData(e.currentTarget).get('identifier') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      await api('/auth/user/emailpass/reset-password', { method: 'POST', quiet401: true, body: { identifier } });
      setSentTo(identifier);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Frame title="Reset your password">
      {sentTo ? (
        <>
          <p className="note note-info" role="status">
            If {sentTo} has an account, a link to set a new password is on its way. It works once, for 15 minutes.
          </p>
          <Link to="/login">Back to sign in</Link>
        </>
      ) : (
        <form onSubmit={submit} aria-labelledby="auth-title">
          <p className="muted">Enter the email you sign in with; we email you a link to set a new password.</p>
          <Field
            label="Email"
            name="identifier"
            type="email"
            autoComplete="username"
            required
            autoFocus
            error={error}
          />
          <ErrorNote error={error} skipField />
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Sending…' : 'Email me a link'}
          </button>
          <p>
            <Link to="/login">Back to sign in</Link>
          </p>
        </form>
      )}
    </Frame>
  );
}

/** The emailed link's page (`/app/reset-password?token=…&email=…`): sets the new password with the token. */
export function ResetPasswordPage() {
  const params = new URLSearchParams(window.location.search);
  const token = params.get('token') ?? '';
  const email = params.get('email') ?? '';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = newPassword(form);
    setError(null);
    if (password instanceof ApiError) {
      setError(password);
      return;
    }
    setBusy(true);
    try {
      await api('/auth/user/emailpass/update', {
        method: 'POST',
        quiet401: true,
        headers: { authorization: `Bearer ${token}` },
        body: { password, ...(email ? { email } : {}) },
      });
      setDone(true);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? new ApiError(401, err.type, 'This link has expired or was already used. Ask for a new one.')
          : err,
      );
    } finally {
      setBusy(false);
    }
  }

  if (done)
    return (
      <Frame title="Password changed">
        <p className="note note-info" role="status">
          Your password is changed. Sign in with the new one.
        </p>
        <Link className="btn btn-primary btn-block" to="/login">
          Sign in
        </Link>
      </Frame>
    );
  return (
    <Frame title="Set a new password">
      {!token ? (
        <>
          <p className="note note-error" role="alert">
            This page needs the link from the password reset email.
          </p>
          <Link to="/forgot-password">Ask for a link</Link>
        </>
      ) : (
        <form onSubmit={submit} aria-labelledby="auth-title">
          {email && <p className="muted">For {email}</p>}
          <input type="hidden" name="username" value={email} autoComplete="username" />
          <NewPasswordFields labels={['New password', 'Repeat the new password']} autoFocus error={error} />
          <ErrorNote error={error} skipField />
          {error instanceof ApiError && error.status === 401 && <Link to="/forgot-password">Ask for a new link</Link>}
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Saving…' : 'Set password'}
          </button>
        </form>
      )}
    </Frame>
  );
}
