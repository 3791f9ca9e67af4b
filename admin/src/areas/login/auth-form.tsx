import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api.ts';

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

/** The page a finished form leaves behind (an account made, a password changed): what happened, then "Sign in". */
export function SignInNext({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Frame title={title}>
      <p className="note note-info" role="status">
        {children}
      </p>
      <Link className="btn btn-primary btn-block" to="/login">
        Sign in
      </Link>
    </Frame>
  );
}

/**
 * A signed-out page's form (forgot password, reset, invite): `submit` reads the form, and when
 * `check` finds nothing wrong with it, `send`s it while `busy`; what `send` throws is the `error`
 * the fields and the note show.
 */
export function useAuthForm(send: (form: FormData) => Promise<void>, check?: (form: FormData) => ApiError | null) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setError(null);
    const invalid = check?.(form);
    if (invalid) {
      setError(invalid);
      return;
    }
    setBusy(true);
    try {
      await send(form);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, submit };
}

/** The error the second password field shows when the two typed differ, else null. */
export function passwordsDiffer(form: FormData): ApiError | null {
  return form.get('password') === form.get('confirm')
    ? null
    : new ApiError(400, 'invalid_data', 'The two passwords differ.', 'confirm');
}
