import { Field } from '../../components/ui.tsx';

/** A tax rate as typed: its name, code and percentage. */
export interface RateText {
  name: string;
  code: string;
  rate: string;
}

/**
 * The name, code and percentage of a tax rate: the same three fields in the new region's default
 * rate, a region's default rate and an override rate.
 */
export function RateFields({
  value,
  onChange,
  error,
  required = true,
  labels = { name: 'Name', code: 'Code', rate: 'Rate' },
  hints = {},
}: {
  value: RateText;
  onChange: (next: RateText) => void;
  error?: unknown;
  required?: boolean;
  labels?: RateText;
  hints?: Partial<RateText>;
}) {
  const field = (k: keyof RateText) => (
    <Field
      label={labels[k]}
      name={k}
      required={required}
      inputMode={k === 'rate' ? 'decimal' : undefined}
      value={value[k]}
      onChange={(e) => onChange({ ...value, [k]: e.target.value })}
      error={error}
      hint={hints[k] ?? (k === 'rate' ? 'percent' : undefined)}
    />
  );
  return (
    <>
      {field('name')}
      {field('code')}
      {field('rate')}
    </>
  );
}
