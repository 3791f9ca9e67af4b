import {
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
  type InputHTMLAttributes,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { ApiError } from '../lib/api.ts';
import { errorFor } from '../lib/fields.ts';

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}…
    </div>
  );
}

/** An API error in words; a field error is shown by its field instead (see Field). */
export function ErrorNote({ error, skipField }: { error: unknown; skipField?: boolean }) {
  if (!error) return null;
  if (skipField && error instanceof ApiError && error.field) return null;
  const message = error instanceof Error ? error.message : String(error);
  const unreachable = error instanceof ApiError && (error.status === 502 || error.status === 0);
  return (
    <div className={`note ${unreachable ? 'note-warn' : 'note-error'}`} role="alert">
      {message}
    </div>
  );
}

type FieldProps = {
  label: string;
  name: string;
  error?: unknown;
  hint?: ReactNode;
} & (
  | ({ as?: 'input' } & InputHTMLAttributes<HTMLInputElement>)
  | ({ as: 'select'; children: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>)
  | ({ as: 'textarea' } & TextareaHTMLAttributes<HTMLTextAreaElement>)
);

/** A labelled control with its hint and, when the API named this field, the API's message beside it. */
export function Field(props: FieldProps) {
  const id = useId();
  const { label, name, error, hint, as, ...rest } = props as FieldProps & { as?: string };
  const apiField = error instanceof ApiError ? error.field : null;
  const message = errorFor(apiField, name) ? (error as ApiError).message : null;
  const describedBy = [hint ? `${id}-hint` : '', message ? `${id}-err` : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, name, 'aria-invalid': message ? true : undefined, 'aria-describedby': describedBy };
  let control: ReactNode;
  if (as === 'select') control = <select {...common} {...(rest as SelectHTMLAttributes<HTMLSelectElement>)} />;
  else if (as === 'textarea')
    control = <textarea {...common} {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)} />;
  else control = <input {...common} {...(rest as InputHTMLAttributes<HTMLInputElement>)} />;
  const checkbox = (rest as InputHTMLAttributes<HTMLInputElement>).type === 'checkbox';
  return (
    <div className={`field${checkbox ? ' field-check' : ''}`}>
      {checkbox ? control : null}
      <label htmlFor={id}>{label}</label>
      {checkbox ? null : control}
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
      {message && (
        <small id={`${id}-err`} className="field-error" role="alert">
          {message}
        </small>
      )}
    </div>
  );
}

const BADGE: Record<string, string> = {
  published: 'good',
  installed: 'good',
  succeeded: 'good',
  sent: 'good',
  not_sent: 'warn',
  captured: 'good',
  active: 'good',
  fulfilled: 'good',
  shipped: 'good',
  delivered: 'good',
  paid: 'good',
  draft: 'muted',
  proposed: 'muted',
  not_fulfilled: 'muted',
  pending: 'muted',
  open: 'muted',
  info: 'info',
  muted: 'muted',
  installing: 'info',
  updating: 'info',
  retrying: 'warn',
  authorized: 'info',
  partially_captured: 'info',
  partially_fulfilled: 'info',
  partially_shipped: 'info',
  failed: 'bad',
  dead: 'bad',
  canceled: 'bad',
  rejected: 'bad',
  revoked: 'bad',
  disabled: 'warn',
  expired: 'warn',
  refunded: 'warn',
  partially_refunded: 'warn',
  requires_action: 'warn',
  critical: 'bad',
  warning: 'warn',
};

export function Badge({ value, children }: { value: string | null | undefined; children?: ReactNode }) {
  if (!value) return <span className="badge badge-muted">—</span>;
  return <span className={`badge badge-${BADGE[value] ?? 'muted'}`}>{children ?? value.replace(/_/g, ' ')}</span>;
}

export function PageHeader({ title, actions, back }: { title: ReactNode; actions?: ReactNode; back?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        {back}
        <h1>{title}</h1>
      </div>
      {actions && <div className="actions">{actions}</div>}
    </header>
  );
}

export function Card({
  title,
  children,
  actions,
  className,
}: {
  title?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  const id = useId();
  // Named by its heading, so a card is a landmark a screen reader (and a test) can go to.
  return (
    <section className={`card ${className ?? ''}`} aria-labelledby={title ? `${id}-title` : undefined}>
      {(title || actions) && (
        <div className="card-head">
          {title && <h2 id={`${id}-title`}>{title}</h2>}
          {actions && <div className="actions">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/**
 * Offset paging that never needs more than the page and the count the list already carries:
 * previous / next, so a 100,000-product catalog pages as fast as a small one.
 */
export function Pager({
  offset,
  limit,
  count,
  hasMore,
  shown,
  onChange,
}: {
  offset: number;
  limit: number;
  /** The total, when known; without it "of N" is left out. */
  count: number | undefined;
  /** Whether a next page exists, when the list knows without a count (a limit + 1 probe). */
  hasMore?: boolean;
  shown: number;
  onChange: (offset: number) => void;
}) {
  const from = shown ? offset + 1 : 0;
  const to = offset + shown;
  return (
    <nav className="pager" aria-label="Pages">
      <span>
        {from}–{to}
        {count !== undefined ? ` of ${count.toLocaleString()}` : ''}
      </span>
      <button
        type="button"
        className="btn"
        disabled={offset === 0}
        onClick={() => onChange(Math.max(0, offset - limit))}
      >
        Previous
      </button>
      <button
        type="button"
        className="btn"
        disabled={hasMore !== undefined ? !hasMore : count !== undefined ? to >= count : shown < limit}
        onClick={() => onChange(offset + limit)}
      >
        Next
      </button>
    </nav>
  );
}

/** A confirmation in a native modal <dialog> (focus trapped, Escape closes). */
export function ConfirmButton({
  label,
  title,
  body,
  confirmLabel,
  onConfirm,
  danger,
  disabled,
  small,
}: {
  label: string;
  title: string;
  body: ReactNode;
  confirmLabel?: string;
  onConfirm: () => void;
  danger?: boolean;
  disabled?: boolean;
  /** The small button of a table row or a list entry. */
  small?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        className={`btn${small ? ' btn-small' : ''}${danger ? ' btn-danger' : ''}`}
        disabled={disabled}
        onClick={() => ref.current?.showModal()}
      >
        {label}
      </button>
      <dialog ref={ref} className="dialog" aria-label={title}>
        <form method="dialog">
          <h2>{title}</h2>
          <div>{body}</div>
          <div className="actions">
            <button type="submit" className="btn" value="cancel">
              Cancel
            </button>
            <button
              type="submit"
              className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
              value="ok"
              onClick={() => onConfirm()}
            >
              {confirmLabel ?? label}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

/** A value that follows `value` after it stopped changing for `ms` (search boxes). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}
