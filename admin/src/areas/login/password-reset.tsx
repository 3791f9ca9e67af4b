import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, api } from '../../lib/api.ts';
import { ErrorNote, Field } from '../../components/ui.tsx';
import { Frame, SignInNext, passwordsDiffer, useAuthForm } from './auth-form.tsx';

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
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { busy, error, submit } = useAuthForm(async (form) => {
    const identifier = String(form.get('identifier') ?? '').trim();
    await api('/auth/user/emailpass/reset-password', { method: 'POST', quiet401: true, body: { identifier } });
    setSentTo(identifier);
  });

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
  const [done, setDone] = useState(false);
  const { busy, error, submit } = useAuthForm(async (form) => {
    await api('/auth/user/emailpass/update', {
      method: 'POST',
      quiet401: true,
      headers: { authorization: `Bearer ${token}` },
      body: { password: form.get('password'), ...(email ? { email } : {}) },
    }).catch((err) => {
      throw err instanceof ApiError && err.status === 401
        ? new ApiError(401, err.type, 'This link has expired or was already used. Ask for a new one.')
        : err;
    });
    setDone(true);
  }, passwordsDiffer);

  if (done)
    return <SignInNext title="Password changed">Your password is changed. Sign in with the new one.</SignInNext>;
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
