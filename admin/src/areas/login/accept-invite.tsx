import { useState } from 'react';
import { ApiError, api } from '../../lib/api.ts';
import { ErrorNote, Field } from '../../components/ui.tsx';
import { NewPasswordFields } from './password-reset.tsx';
import { Frame, SignInNext, passwordsDiffer, useAuthForm } from './auth-form.tsx';

/** The invite mail's page (`/app/invite?token=…`): a name and a password make the account, then sign in. */
export function AcceptInvitePage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [email, setEmail] = useState<string | null>(null);
  const { busy, error, submit } = useAuthForm(async (form) => {
    const { user } = await api<{ user: { email: string } }>('/admin/invites/accept', {
      method: 'POST',
      quiet401: true,
      query: { token },
      body: {
        first_name: String(form.get('first_name') ?? '') || null,
        last_name: String(form.get('last_name') ?? '') || null,
        password: form.get('password'),
      },
    }).catch((err) => {
      throw err instanceof ApiError && (err.status === 401 || err.status === 404)
        ? new ApiError(
            err.status,
            err.type,
            'This invite has expired, was withdrawn or was already used. Ask for a new one.',
          )
        : err;
    });
    setEmail(user.email);
  }, passwordsDiffer);

  if (email)
    return (
      <SignInNext title="Welcome aboard">
        Your account <strong>{email}</strong> is ready. Sign in with your new password.
      </SignInNext>
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
