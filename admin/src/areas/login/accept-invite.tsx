import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError, api } from '../../lib/api.ts';
import { ErrorNote, Field } from '../../components/ui.tsx';
import { Frame, NewPasswordFields, newPassword } from './password-reset.tsx';

/** The invite mail's page (`/app/invite?token=…`): a name and a password make the account, then sign in. */
export function AcceptInvitePage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [email, setEmail] = useState<string | null>(null);

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
      const { user } = await api<{ user: { email: string } }>('/admin/invites/accept', {
        method: 'POST',
        quiet401: true,
        query: { token },
        body: {
          first_name: String(form.get('first_name') ?? '') || null,
          last_name: String(form.get('last_name') ?? '') || null,
          password,
        },
      });
      setEmail(user.email);
    } catch (err) {
      setError(
        err instanceof ApiError && (err.status === 401 || err.status === 404)
          ? new ApiError(
              err.status,
              err.type,
              'This invite has expired, was withdrawn or was already used. Ask for a new one.',
            )
          : err,
      );
    } finally {
      setBusy(false);
    }
  }

  if (email)
    return (
      <Frame title="Welcome aboard">
        <p className="note note-info" role="status">
          Your account <strong>{email}</strong> is ready. Sign in with your new password.
        </p>
        <Link className="btn btn-primary btn-block" to="/login">
          Sign in
        </Link>
      </Frame>
    );
  return (
    <Frame title="Join the team">
      {!token ? (
        <p className="note note-error" role="alert">
          This page needs the link from the invite email.
        </p>
      ) : (
        <form onSubmit={submit} aria-labelledby="auth-title">
          <Field label="First name" name="first_name" autoComplete="given-name" error={error} />
          <Field label="Last name" name="last_name" autoComplete="family-name" error={error} />
          <NewPasswordFields labels={['Password', 'Repeat the password']} error={error} />
          <ErrorNote error={error} skipField />
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Creating…' : 'Create my account'}
          </button>
        </form>
      )}
    </Frame>
  );
}
