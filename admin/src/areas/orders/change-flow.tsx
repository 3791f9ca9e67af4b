import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ErrorNote, Field } from '../../components/ui.tsx';
import { SubmitForm } from '../../components/form-pieces.tsx';
import { useToast } from '../../components/toasts.tsx';
import { ChangePreview, type ChangeKind, type Preview } from './change-preview.tsx';
import type { Order, OrderItem } from './types.ts';

/**
 * The steps every after-sale change of an order takes (edit, return, exchange, claim): a form of
 * quantities per line, "Preview …" builds the change on the server, its preview shows, then
 * "Confirm …" or "Discard …". Each panel says only what it builds and how it confirms.
 */

/** After a change: the toast, then the order, its changes and its returns read again. */
export function useOrderAction(orderId: string) {
  const client = useQueryClient();
  return async (message: string, notify: (m: string, k: 'success') => void) => {
    notify(message, 'success');
    await client.invalidateQueries({ queryKey: ['order', orderId] });
    await client.invalidateQueries({ queryKey: ['order-changes', orderId] });
    await client.invalidateQueries({ queryKey: ['order-returns', orderId] });
  };
}

/** A change built on the server and waiting for confirmation: its id and its preview. */
export interface Built {
  id: string;
  preview: Preview;
}

/**
 * A change being put together: `build` opens it (null: nothing to preview), then `confirm` or
 * `discard` ends it, each with its toast (`done`).
 */
export function usePendingChange({
  orderId,
  build,
  confirm,
  discard,
  done,
}: {
  orderId: string;
  build: () => Promise<Built | null>;
  confirm: (change: Built) => Promise<unknown>;
  discard: (change: Built) => Promise<unknown>;
  done: { confirmed: string; discarded: string };
}) {
  const notify = useToast();
  const refresh = useOrderAction(orderId);
  const [pending, setPending] = useState<Built | null>(null);
  const start = useMutation({ mutationFn: build, onSuccess: setPending });
  const confirmed = useMutation({
    mutationFn: () => confirm(pending!),
    onSuccess: async () => {
      setPending(null);
      await refresh(done.confirmed, notify);
    },
  });
  const discarded = useMutation({
    mutationFn: () => discard(pending!),
    onSuccess: async () => {
      setPending(null);
      await refresh(done.discarded, notify);
    },
  });
  return {
    pending,
    start,
    confirm: confirmed,
    discard: discarded,
    error: start.error ?? confirmed.error ?? discarded.error,
  };
}

export type PendingChange = ReturnType<typeof usePendingChange>;

/** The change's form: its fields, then "Preview <kind>" until a preview is shown. */
export function ChangeForm({
  label,
  kind,
  change,
  ready = true,
  children,
}: {
  label: string;
  kind: ChangeKind;
  change: PendingChange;
  /** Whether enough is filled in to preview. */
  ready?: boolean;
  children: ReactNode;
}) {
  return (
    <SubmitForm label={label} onSubmit={() => change.start.mutate()}>
      {children}
      {!change.pending && (
        <button type="submit" className="btn" disabled={change.start.isPending || !ready}>
          Preview {kind}
        </button>
      )}
    </SubmitForm>
  );
}

/** Under the form: the error, and once built, the preview with "Confirm <kind>" and "Discard <kind>". */
export function ChangeFooter({ kind, order, change }: { kind: ChangeKind; order: Order; change: PendingChange }) {
  return (
    <>
      <ErrorNote error={change.error} />
      {change.pending && (
        <>
          <ChangePreview order={order} preview={change.pending.preview} kind={kind} />
          <div className="actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={change.confirm.isPending}
              onClick={() => change.confirm.mutate()}
            >
              Confirm {kind}
            </button>
            <button
              type="button"
              className="btn"
              disabled={change.discard.isPending}
              onClick={() => change.discard.mutate()}
            >
              Discard {kind}
            </button>
          </div>
        </>
      )}
    </>
  );
}

type QuantityProps = {
  /** The field's name is `${name}.${line id}`. */
  name: string;
  label: (line: OrderItem) => string;
  min: (line: OrderItem) => number;
  max?: (line: OrderItem) => number;
  hint?: (line: OrderItem) => string | undefined;
  values: Record<string, string>;
  /** Shown for a line with no value. */
  fallback: string;
  disabled: boolean;
  onChange: (values: Record<string, string>) => void;
};

/** A line's quantity, typed as text into the values by line id. */
export function LineQuantity({ line: i, ...p }: QuantityProps & { line: OrderItem }) {
  return (
    <Field
      label={p.label(i)}
      hint={p.hint?.(i)}
      name={`${p.name}.${i.id}`}
      type="number"
      min={p.min(i)}
      max={p.max?.(i)}
      value={p.values[i.id] ?? p.fallback}
      disabled={p.disabled}
      onChange={(e) => p.onChange({ ...p.values, [i.id]: e.target.value })}
    />
  );
}

/** A quantity field per line, in one row. */
export function LineQuantities({ lines, ...p }: QuantityProps & { lines: OrderItem[] }) {
  return (
    <div className="row">
      {lines.map((i) => (
        <LineQuantity key={i.id} line={i} {...p} />
      ))}
    </div>
  );
}
