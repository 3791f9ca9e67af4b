import { Card, Empty, ErrorNote, Field } from '../../components/ui.tsx';
import { NameField, SubForm, useFormValues } from './shipping-form-parts.tsx';
import { AddDetails, DeleteButton, EditButton, useEditing } from './shipping-list-parts.tsx';
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
  const submit = () =>
    write.mutate({
      path: type ? `/admin/shipping-option-types/${type.id}` : '/admin/shipping-option-types',
      done: type ? 'Option type saved' : 'Option type created',
      body: {
        label: v.label.trim(),
        code: v.code.trim() || codeOf(v.label),
        description: v.description.trim(),
      },
    });
  return (
    <SubForm
      label={type ? `Edit type ${type.label}` : 'New option type'}
      write={write}
      onSubmit={submit}
      submit={type ? 'Save type' : 'Create type'}
      onCancel={type ? onDone : undefined}
    >
      <div className="row">
        <NameField label="Type label" name="label" value={v.label} onChange={set('label')} error={write.error} />
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
    </SubForm>
  );
}

/**
 * Shipping option types (Medusa's `/admin/shipping-option-types`): shared labels such as
 * "Standard" or "Express" that options take, so a storefront can group them. A type in use
 * cannot be deleted (the API says by how many options).
 */
export function OptionTypesCard({ types, canWrite }: { types: OptionType[]; canWrite: boolean }) {
  const editing = useEditing(types);
  const remove = useShippingWrite();
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
                  <EditButton name={`Edit type ${t.label}`} onClick={() => editing.toggle(t.id)} />
                  <DeleteButton
                    write={remove}
                    path={`/admin/shipping-option-types/${t.id}`}
                    done="Option type deleted"
                    title={`Delete the option type ${t.label}?`}
                    body="Only a type no shipping option uses can be deleted."
                    confirmLabel="Delete type"
                  />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {editing.edited && <OptionTypeForm key={editing.edited.id} type={editing.edited} onDone={editing.done} />}
      {canWrite && (
        <AddDetails summary="Add an option type">
          <OptionTypeForm />
        </AddDetails>
      )}
    </Card>
  );
}
