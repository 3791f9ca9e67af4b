import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useCanWrite } from '../lib/session.tsx';

/** A page header's primary link to a form that writes ("Add customer"), shown only to who may write. */
export function WriteLink({ to, children }: { to: string; children: ReactNode }) {
  const canWrite = useCanWrite();
  if (!canWrite) return null;
  return (
    <Link className="btn btn-primary" to={to}>
      {children}
    </Link>
  );
}

/** A detail page's way back to its list, above its title: "← Customers". */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link className="back" to={to}>
      ← {children}
    </Link>
  );
}
