import { useState, type ReactNode } from 'react';
import { ConfirmButton } from '../../components/ui.tsx';
import type { useShippingWrite } from './shipping-write.ts';

/**
 * The pieces the Locations & shipping lists share (locations, sets, zones, options, profiles,
 * option types): which record is being edited, its Edit toggle, its confirmed Delete, and the
 * "Add a …" fold with the form for a new one.
 */

/** Which record of a list is being edited (one at a time; Edit again closes it). */
export function useEditing<T extends { id: string }>(records: T[]) {
  const [editing, setEditing] = useState<string | null>(null);
  return {
    edited: records.find((r) => r.id === editing),
    toggle: (id: string) => setEditing(editing === id ? null : id),
    done: () => setEditing(null),
  };
}

/** The small Edit button of a list entry or a heading. */
export function EditButton({ label = 'Edit', name, onClick }: { label?: string; name?: string; onClick: () => void }) {
  return (
    <button type="button" className="btn btn-small" aria-label={name} onClick={onClick}>
      {label}
    </button>
  );
}

/** A record's Delete: confirmed in a dialog, then `DELETE path` through the list's write (toast `done`). */
export function DeleteButton({
  write,
  path,
  done,
  label = 'Delete',
  title,
  body,
  confirmLabel,
}: {
  write: ReturnType<typeof useShippingWrite>;
  path: string;
  done: string;
  label?: string;
  title: string;
  body: string;
  confirmLabel: string;
}) {
  return (
    <ConfirmButton
      small
      label={label}
      danger
      title={title}
      body={body}
      confirmLabel={confirmLabel}
      disabled={write.isPending}
      onConfirm={() => write.mutate({ path, method: 'DELETE', done })}
    />
  );
}

/** The fold under a list that opens the form for a new record. */
export function AddDetails({ summary, children }: { summary: ReactNode; children: ReactNode }) {
  return (
    <details className="add">
      <summary>{summary}</summary>
      {children}
    </details>
  );
}
