import { useState } from 'react';
import { ErrorNote, Field } from '../../components/ui.tsx';
import { ADDRESS_FIELDS, type AddressKey, type AddressValues, type PriceRow } from './shipping-forms.ts';
import type { ShippingRefs } from './shipping-write.ts';

/**
 * The pieces the Locations & shipping forms share: a form's state that a created record clears,
 * its error and buttons, an address, a zone's country and province lists, an option's price rows.
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
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {submit}
        </button>
        {onCancel && (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </>
  );
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

const CONDITIONS: [string, string][] = [
  ['', 'always'],
  ['gte', 'item total ≥'],
  ['gt', 'item total >'],
  ['lt', 'item total <'],
  ['lte', 'item total ≤'],
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
  return (
    <fieldset className="price-rows">
      <legend>Prices</legend>
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved; order is their identity
        <fieldset className="row price-row" key={i} aria-label={`Price ${i + 1}`}>
          <Field
            as="select"
            label="In"
            name={`prices.${i}.where`}
            value={r.where}
            onChange={(e) => setRow(i, { where: e.target.value })}
            error={error}
          >
            {refs.currencies.map((c) => (
              <option key={c} value={`cur:${c}`}>
                {c.toUpperCase()}
              </option>
            ))}
            {refs.regions.map((g) => (
              <option key={g.id} value={`reg:${g.id}`}>
                Region {g.name} ({g.currency_code.toUpperCase()})
              </option>
            ))}
          </Field>
          <Field
            label="Amount"
            name={`prices.${i}.amount`}
            inputMode="decimal"
            required
            value={r.amount}
            onChange={(e) => setRow(i, { amount: e.target.value })}
            error={error}
          />
          <Field
            as="select"
            label="When"
            name={`prices.${i}.operator`}
            value={r.operator}
            onChange={(e) => setRow(i, { operator: e.target.value as PriceRow['operator'] })}
            error={error}
          >
            {CONDITIONS.map(([v, text]) => (
              <option key={v} value={v}>
                {text}
              </option>
            ))}
          </Field>
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
