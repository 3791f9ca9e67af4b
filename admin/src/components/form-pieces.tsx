import type { ReactNode } from 'react';
import { useUrlFilters, useUrlText } from '../lib/url-filters.ts';
import { Field } from './ui.tsx';

/**
 * Pieces several forms are built of, so each form says only what is its own: a window of time
 * (campaigns, price lists), a list of checkboxes (customer groups, product types, shipping options),
 * a choice among listed ones, a status choice, the form itself.
 */

/** A form named `label` whose submit (Enter or its submit button) calls `onSubmit` instead of loading a page. */
export function SubmitForm({
  label,
  onSubmit,
  className,
  children,
}: {
  label: string;
  onSubmit: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      aria-label={label}
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A form's primary button, disabled while its write runs (no second submit of the same form). */
export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="btn btn-primary" disabled={pending}>
      {children}
    </button>
  );
}

/** "Starts" and "Ends" as `datetime-local` inputs, on a form's state that holds them as texts (lib/local-time.ts). */
export function DateWindowFields<T extends { starts_at: string; ends_at: string }>({
  value,
  onChange,
  error,
}: {
  value: T;
  onChange: (next: T) => void;
  error?: unknown;
}) {
  const field = (k: 'starts_at' | 'ends_at', label: string) => (
    <Field
      label={label}
      name={k}
      type="datetime-local"
      value={value[k]}
      onChange={(e) => onChange({ ...value, [k]: e.target.value })}
      error={error}
    />
  );
  return (
    <>
      {field('starts_at', 'Starts')}
      {field('ends_at', 'Ends')}
    </>
  );
}

/** A titled set of checkboxes, one per item, picking ids. */
export function CheckList({
  legend,
  name,
  items,
  picked,
  onChange,
  empty,
  children,
}: {
  legend: string;
  /** Each checkbox's name is `${name}-${id}`. */
  name: string;
  items: { id: string; label: string }[];
  picked: string[];
  onChange: (picked: string[]) => void;
  /** Said when there is nothing to pick. */
  empty: string;
  /** Shown above the boxes (a loading error). */
  children?: ReactNode;
}) {
  return (
    <fieldset className="group-picks">
      <legend>{legend}</legend>
      {children}
      {items.length === 0 && <small>{empty}</small>}
      {items.map((item) => (
        <Field
          key={item.id}
          label={item.label}
          name={`${name}-${item.id}`}
          type="checkbox"
          checked={picked.includes(item.id)}
          onChange={(e) => onChange(e.target.checked ? [...picked, item.id] : picked.filter((id) => id !== item.id))}
        />
      ))}
    </fieldset>
  );
}

/** A select of the given choices, maybe after a first one, `none`, that stands for no choice (''). */
export function SelectField({
  label,
  name,
  choices,
  none,
  value,
  onChange,
  error,
  disabled,
  hint,
  required,
}: {
  label: string;
  name: string;
  choices: readonly { value: string; label: string }[];
  none?: string;
  value: string;
  onChange: (value: string) => void;
  error?: unknown;
  disabled?: boolean;
  hint?: ReactNode;
  required?: boolean;
}) {
  return (
    <Field
      as="select"
      label={label}
      name={name}
      value={value}
      disabled={disabled}
      required={required}
      hint={hint}
      onChange={(e) => onChange(e.target.value)}
      error={error}
    >
      {none !== undefined && <option value="">{none}</option>}
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </Field>
  );
}

/** A status choice among the given ones (`draft`, `active`…), each shown capitalized. */
export function StatusField<S extends string>({
  statuses,
  value,
  onChange,
  error,
}: {
  statuses: readonly S[];
  value: S;
  onChange: (status: S) => void;
  error?: unknown;
}) {
  return (
    <SelectField
      label="Status"
      name="status"
      choices={choicesOf(statuses, capitalized)}
      value={value}
      onChange={(status) => onChange(status as S)}
      error={error}
    />
  );
}

/**
 * A list page's filters (inside its `search`, components/list-page.tsx): a search and a status
 * among `statuses` ("Any" first), both kept in the URL (lib/url-filters.ts), so a filtered list
 * can be linked to.
 */
export function SearchAndStatus({ statuses }: { statuses: readonly string[] }) {
  return (
    <>
      <UrlTextField label="Search" name="q" type="search" />
      <UrlSelectField label="Status" name="status" none="Any" choices={choicesOf(statuses, capitalized)} />
    </>
  );
}

const capitalized = (s: string) => s[0].toUpperCase() + s.slice(1);

/** Choices whose values are the given words, each shown as `label` words it (as it is, by default). */
export function choicesOf(values: readonly string[], label: (value: string) => string = (v) => v) {
  return values.map((value) => ({ value, label: label(value) }));
}

/** Choices of records by their id, each shown by its name (locations, roles, profiles…); none while they load. */
export function namedChoices(records: readonly { id: string; name: string }[] | undefined) {
  return (records ?? []).map((r) => ({ value: r.id, label: r.name }));
}

/** A list filter's select whose value lives in the URL under `name`; `none` ('' in the URL) comes first. */
export function UrlSelectField({
  label,
  name,
  none,
  choices,
}: {
  label: string;
  name: string;
  none: string;
  choices: readonly { value: string; label: string }[];
}) {
  const [params, set] = useUrlFilters();
  return (
    <SelectField
      label={label}
      name={name}
      none={none}
      choices={choices}
      value={params.get(name) ?? ''}
      onChange={(value) => set(name, value)}
    />
  );
}

/** A text filter whose value lives in the URL under `name` (lib/url-filters.ts useUrlText: no letter lost on a slow machine). */
export function UrlTextField(props: { label: string; name: string; type?: string; placeholder?: string }) {
  const [text, change] = useUrlText(props.name);
  return <Field {...props} value={text} onChange={(e) => change(e.target.value)} />;
}
