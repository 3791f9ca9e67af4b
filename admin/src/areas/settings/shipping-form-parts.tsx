import { useState, type ChangeEvent, type ReactNode } from 'react';
import { ErrorNote, Field } from '../../components/ui.tsx';
import { SubmitButton, SelectField, SubmitForm } from '../../components/form-pieces.tsx';
import {
  ADDRESS_FIELDS,
  OPERATOR_SIGNS,
  type AddressKey,
  type AddressValues,
  type Operator,
  type PriceRow,
} from './shipping-forms.ts';
import type { ShippingRefs, useShippingWrite } from './shipping-write.ts';

/**
 * The pieces the Locations & shipping forms share: a form's state that a created record clears,
 * the form with its error and buttons, a name, an address, a zone's country and province lists,
 * an option's price rows.
 */

/**
 * A form's values, set field by field; `clear()` puts back the first values (after a create, so
 * the form is ready for the next one; an edit keeps what was saved).
 */
export function useFormValues<T extends Record<string, string>>(start: () => T) {
  const [values, setValues] = useState(start);
  const set = (k: keyof T) => (e: { target: { value: string } }) => setValues({ ...values, [k]: e.target.value });
  return { values, set, clear: () => setValues(start()) };
}

/** The form's own error (a field's shows by the field), its submit button, and Cancel while editing. */
export function FormEnd({
  error,
  pending,
  submit,
  onCancel,
}: {
  error: unknown;
  pending: boolean;
  submit: string;
  onCancel?: () => void;
}) {
  return (
    <>
      <ErrorNote error={error} skipField />
      <div className="actions">
        <SubmitButton pending={pending}>{submit}</SubmitButton>
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </>
  );
}

/**
 * A record's form as every list of the page shows it: its fields, then its error, its submit
 * button and (while editing) Cancel; sent through the list's write.
 */
export function SubForm({
  label,
  write,
  onSubmit,
  submit,
  onCancel,
  children,
}: {
  label: string;
  write: ReturnType<typeof useShippingWrite>;
  onSubmit: () => void;
  submit: string;
  onCancel?: () => void;
  children: ReactNode;
}) {
  return (
    <SubmitForm label={label} onSubmit={onSubmit} className="subform">
      {children}
      <FormEnd error={write.error} pending={write.isPending} submit={submit} onCancel={onCancel} />
    </SubmitForm>
  );
}

/** A record's name (up to 255 characters, required), by default the field `name`. */
export function NameField({
  label,
  name = 'name',
  value,
  onChange,
  error,
}: {
  label: string;
  name?: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  error: unknown;
}) {
  return <Field label={label} name={name} required maxLength={255} value={value} onChange={onChange} error={error} />;
}

/** Street, postal code, city and country, each a field named `address.<key>` as the API names it. */
export function AddressFields({
  values,
  set,
  error,
}: {
  values: AddressValues;
  set: (k: AddressKey) => (e: { target: { value: string } }) => void;
  error: unknown;
}) {
  return (
    <>
      {ADDRESS_FIELDS.map(([k, label]) => (
        <Field
          key={k}
          label={label}
          name={`address.${k}`}
          value={values[k]}
          onChange={set(k)}
          error={error}
          hint={k === 'country_code' ? 'two letters, e.g. de' : undefined}
        />
      ))}
    </>
  );
}

/** A zone's countries and provinces as two typed lists (shipping-forms.ts reads them). */
export function GeoListFields({
  countries,
  provinces,
  set,
  error,
}: {
  countries: string;
  provinces: string;
  set: (k: 'countries' | 'provinces') => (e: { target: { value: string } }) => void;
  error: unknown;
}) {
  return (
    <>
      <Field
        label="Countries"
        name="countries"
        value={countries}
        onChange={set('countries')}
        error={error}
        hint="two-letter codes, e.g. de, at"
      />
      <Field
        label="Provinces"
        name="provinces"
        value={provinces}
        onChange={set('provinces')}
        error={error}
        hint="ISO 3166-2 codes, e.g. de-hh, de-by"
      />
    </>
  );
}

/** A price's condition on the cart's item total, written with the signs the options' table shows. */
const CONDITIONS = [
  { value: '', label: 'always' },
  ...(['gte', 'gt', 'lt', 'lte'] as const).map((op) => ({ value: op, label: `item total ${OPERATOR_SIGNS[op]}` })),
];

/**
 * An option's flat prices, one row each: in a currency or for a region, an amount, and maybe a
 * condition on the cart's item total (free shipping over €50 is a row of 0 when ≥ 50).
 */
export function PriceRowsFieldset({
  rows,
  setRows,
  blankRow,
  refs,
  error,
}: {
  rows: PriceRow[];
  setRows: (rows: PriceRow[]) => void;
  blankRow: () => PriceRow;
  refs: Pick<ShippingRefs, 'currencies' | 'regions'>;
  error: unknown;
}) {
  const setRow = (i: number, patch: Partial<PriceRow>) =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  // In a currency, or for a region (in its currency).
  const places = [
    ...refs.currencies.map((c) => ({ value: `cur:${c}`, label: c.toUpperCase() })),
    ...refs.regions.map((g) => ({
      value: `reg:${g.id}`,
      label: `Region ${g.name} (${g.currency_code.toUpperCase()})`,
    })),
  ];
  return (
    <fieldset className="price-rows">
      <legend>Prices</legend>
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved; order is their identity
        <fieldset className="row price-row" key={i} aria-label={`Price ${i + 1}`}>
          <SelectField
            label="In"
            name={`prices.${i}.where`}
            choices={places}
            value={r.where}
            onChange={(where) => setRow(i, { where })}
            error={error}
          />
          <Field
            label="Amount"
            name={`prices.${i}.amount`}
            inputMode="decimal"
            required
            value={r.amount}
            onChange={(e) => setRow(i, { amount: e.target.value })}
            error={error}
          />
          <SelectField
            label="When"
            name={`prices.${i}.operator`}
            choices={CONDITIONS}
            value={r.operator}
            onChange={(operator) => setRow(i, { operator: operator as Operator })}
            error={error}
          />
          {r.operator && (
            <Field
              label="Item total"
              name={`prices.${i}.threshold`}
              inputMode="decimal"
              required
              value={r.threshold}
              onChange={(e) => setRow(i, { threshold: e.target.value })}
              error={error}
            />
          )}
          <button
            type="button"
            className="btn btn-small"
            disabled={rows.length === 1}
            onClick={() => setRows(rows.filter((_, j) => j !== i))}
          >
            Remove price
          </button>
        </fieldset>
      ))}
      <button type="button" className="btn btn-small" onClick={() => setRows([...rows, blankRow()])}>
        Add a price
      </button>
    </fieldset>
  );
}
