import type { ReactNode } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { ErrorNote } from '../../components/ui.tsx';
import { SubmitForm } from '../../components/form-pieces.tsx';

/**
 * A form of the tax pages (a new region, a default rate, the provider, an override rate): its
 * fields, its error (a field's shows by the field) and its submit button, which sends `save`.
 */
export function TaxForm({
  label,
  save,
  submit,
  canSubmit = true,
  unchanged = false,
  children,
}: {
  label: string;
  save: UseMutationResult<unknown, Error, void>;
  submit: string;
  /** Without the right to write, the form only shows. */
  canSubmit?: boolean;
  /** Nothing to save yet: the button waits. */
  unchanged?: boolean;
  children: ReactNode;
}) {
  return (
    <SubmitForm label={label} onSubmit={() => save.mutate()}>
      {children}
      <ErrorNote error={save.error} skipField />
      {canSubmit && (
        <button type="submit" className="btn btn-primary" disabled={save.isPending || unchanged}>
          {submit}
        </button>
      )}
    </SubmitForm>
  );
}
