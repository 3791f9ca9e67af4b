import { useState, type FormEvent } from 'react';
import { Card, ConfirmButton, Empty, ErrorNote, Field } from '../../components/ui.tsx';
import { FormEnd, useFormValues } from './shipping-form-parts.tsx';
import { codeOf } from './shipping-forms.ts';
import { useShippingWrite, type OptionType } from './shipping-write.ts';

/** A shared option type's label, code (from the label unless typed) and description. */
function OptionTypeForm({ type, onDone }: { type?: OptionType; onDone?: () => void }) {
  const form = useFormValues(() => ({
    label: type?.label ?? '',
    code: type?.code ?? '',
    description: type?.description ?? '',
  }));
  const { values: v, set } = form;
  const write = useShippingWrite(() => {
    if (!type) form.clear();
    onDone?.();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    write.mutate({
      path: type ? `/admin/shipping-option-types/${type.id}` : '/admin/shipping-option-types',
      done: type ? 'Option type saved' : 'Option type created',
      body: {
        label: v.label.trim(),
        code: v.code.trim() || codeOf(v.label),
        description: v.description.trim(),
      },
    });
  };
  return (
    <form onSubmit={submit} aria-label={type ? `Edit type ${type.label}` : 'New option type'} className="subform">
      <div className="row">
        <Field
          label="Type label"
          name="label"
          required
          maxLength={255}
          value={v.label}
          onChange={set('label')}
          error={write.error}
        />
        <Field
          label="Code"
          name="code"
          maxLength={100}
          value={v.code}
          onChange={set('code')}
          error={write.error}
          hint="e.g. express; empty: made from the label"
        />
        <Field
          label="Description"
          name="description"
          maxLength={1000}
          value={v.description}
          onChange={set('description')}
          error={write.error}
        />
      </div>
      <FormEnd
        error={write.error}
        pending={write.isPending}
        submit={type ? 'Save type' : 'Create type'}
        onCancel={type ? onDone : undefined}
      />
    </form>
  );
}

/**
 * Shipping option types (Medusa's `/admin/shipping-option-types`): shared labels such as
 * "Standard" or "Express" that options take, so a storefront can group them. A type in use
 * cannot be deleted (the API says by how many options).
 */
export function OptionTypesCard({ types, canWrite }: { types: OptionType[]; canWrite: boolean }) {
  const [editing, setEditing] = useState<string | null>(null);
  const remove = useShippingWrite();
  const edited = types.find((t) => t.id === editing);
  return (
    <Card title="Shipping option types">
      <ErrorNote error={remove.error} />
      {types.length === 0 ? (
        <Empty>No shared option types: each option has a type of its own name.</Empty>
      ) : (
        <ul className="plain-list" aria-label="Option types">
          {types.map((t) => (
            <li key={t.id}>
              {t.label} <span className="muted">({t.code})</span>
              {t.description && <span className="muted"> — {t.description}</span>}
              {canWrite && (
                <>
                  {' '}
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Edit type ${t.label}`}
                    onClick={() => setEditing(editing === t.id ? null : t.id)}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    small
                    label="Delete"
                    danger
                    title={`Delete the option type ${t.label}?`}
                    body="Only a type no shipping option uses can be deleted."
                    confirmLabel="Delete type"
                    disabled={remove.isPending}
                    onConfirm={() =>
                      remove.mutate({
                        path: `/admin/shipping-option-types/${t.id}`,
                        method: 'DELETE',
                        done: 'Option type deleted',
                      })
                    }
                  />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {edited && <OptionTypeForm key={edited.id} type={edited} onDone={() => setEditing(null)} />}
      {canWrite && (
        <details className="add">
          <summary>Add an option type</summary>
          <OptionTypeForm />
        </details>
      )}
    </Card>
  );
}
