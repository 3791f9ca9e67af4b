import { useRef, useState } from 'react';
import { Field, useDebounced } from '../../components/ui.tsx';
import { SelectField } from '../../components/form-pieces.tsx';
import { useRuleSearch, type Option } from './rule-lists.ts';
import {
  OPERATOR_WORDS,
  defOf,
  emptyRule,
  operatorsFor,
  type AttributeDef,
  type DraftRule,
  type Labels,
  type ListSource,
} from './words.ts';

/**
 * The rows of rules a promotion is made of: each picks what it looks at (customer group,
 * collection, item total…), how it compares and the values, from the shop's own lists, searched
 * on the server so a shop with thousands of products picks as easily as one with ten.
 */

/**
 * The values of one rule row: a search over its list and the matches (a page, with more on
 * demand). What is picked stays listed and selected whatever the search shows.
 */
function ValuePicker({
  prefix,
  name,
  source,
  values,
  labels,
  onChange,
}: {
  /** "Buy rule 1": the start of each control's label. */
  prefix: string;
  name: string;
  source: ListSource;
  values: string[];
  labels: Labels;
  onChange: (values: string[]) => void;
}) {
  const [q, setQ] = useState('');
  const term = useDebounced(q).trim();
  const found = useRuleSearch(source, term);
  // Names seen in any page, so a value picked from an earlier search keeps its name.
  const seen = useRef(new Map<string, string>());
  const results = found.data?.pages.flatMap((p) => p.options) ?? [];
  for (const o of results) seen.current.set(o.id, o.label);
  const count = found.data?.pages[0]?.count ?? 0;
  const picked: Option[] = values.map((id) => ({ id, label: labels[id] ?? seen.current.get(id) ?? id }));
  const shown = [...picked, ...results.filter((o) => !values.includes(o.id))];
  const hint = found.isPending
    ? 'Loading…'
    : count === 0
      ? term
        ? `Nothing matches “${term}”`
        : 'Nothing to pick yet'
      : results.length < count
        ? `${results.length} of ${count} shown: type to search. Ctrl or ⌘ picks more than one`
        : 'Ctrl or ⌘ to pick more than one';
  return (
    <>
      <Field
        label={`${prefix}: search`}
        name={`${name}-search`}
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
      />
      <Field
        label={`${prefix}: values`}
        name={`${name}-values`}
        as="select"
        multiple
        size={Math.min(6, Math.max(2, shown.length))}
        value={values}
        onChange={(e) => onChange([...(e.target as unknown as HTMLSelectElement).selectedOptions].map((o) => o.value))}
        hint={hint}
      >
        {shown.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </Field>
      {found.hasNextPage && (
        <button
          type="button"
          className="btn"
          disabled={found.isFetchingNextPage}
          onClick={() => found.fetchNextPage()}
          aria-label={`${prefix}: more values`}
        >
          More…
        </button>
      )}
    </>
  );
}

function RuleRow({
  name,
  index,
  rule,
  defs,
  labels,
  onChange,
  onRemove,
}: {
  name: string;
  index: number;
  rule: DraftRule;
  defs: AttributeDef[];
  labels: Labels;
  onChange: (r: DraftRule) => void;
  onRemove: () => void;
}) {
  const def = defOf(rule.attribute, defs);
  const operators = operatorsFor(def.source);
  const n = index + 1;
  const prefix = `${name} ${n}`;
  return (
    <div className="row rule-row">
      <Field
        label={`${prefix}: looks at`}
        name={`${name}-${n}-attribute`}
        as="select"
        value={rule.attribute}
        onChange={(e) => {
          const next = defs.find((d) => d.attribute === e.target.value) ?? def;
          onChange(emptyRule(next));
        }}
      >
        {defs.map((d) => (
          <option key={d.attribute} value={d.attribute}>
            {d.label}
          </option>
        ))}
      </Field>
      <SelectField
        label={`${prefix}: compares`}
        name={`${name}-${n}-operator`}
        value={rule.operator}
        onChange={(v) => onChange({ ...rule, operator: v as DraftRule['operator'] })}
        choices={operators.map((o) => ({
          value: o,
          label: o === 'in' ? 'is one of' : o === 'ne' ? 'is none of' : OPERATOR_WORDS[o],
        }))}
      />
      {def.source === 'text' || def.source === 'amount' ? (
        <Field
          label={`${prefix}: ${def.source === 'amount' ? 'amount' : 'values'}`}
          name={`${name}-${n}-text`}
          inputMode={def.source === 'amount' ? 'decimal' : undefined}
          value={rule.text}
          onChange={(e) => onChange({ ...rule, text: e.target.value })}
          hint={def.source === 'amount' ? 'e.g. 50.00' : 'ISO codes, comma separated, e.g. de, at'}
        />
      ) : (
        <ValuePicker
          // A new list (the row now looks at something else) starts with an empty search.
          key={def.source}
          prefix={prefix}
          name={`${name}-${n}`}
          source={def.source}
          values={rule.values}
          labels={labels}
          onChange={(values) => onChange({ ...rule, values })}
        />
      )}
      <button type="button" className="btn" onClick={onRemove} aria-label={`Remove ${name.toLowerCase()} ${n}`}>
        Remove
      </button>
    </div>
  );
}

/** A titled list of rule rows with "Add …"; all rows must hold (the engine's AND). */
export function RulesEditor({
  legend,
  name,
  empty,
  defs,
  rules,
  labels,
  onChange,
}: {
  legend: string;
  /** What one row is called in labels: "Condition", "Target", "Buy rule". */
  name: string;
  empty: string;
  defs: AttributeDef[];
  rules: DraftRule[];
  /** Names of the ids the rules hold (useRuleLabels). */
  labels: Labels;
  onChange: (rules: DraftRule[]) => void;
}) {
  return (
    <fieldset className="rules">
      <legend>{legend}</legend>
      {rules.length === 0 && <small className="muted">{empty}</small>}
      {rules.map((r, i) => (
        <RuleRow
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id until saved; order is their identity
          key={i}
          name={name}
          index={i}
          rule={r}
          defs={defs}
          labels={labels}
          onChange={(next) => onChange(rules.map((x, j) => (j === i ? next : x)))}
          onRemove={() => onChange(rules.filter((_, j) => j !== i))}
        />
      ))}
      <button type="button" className="btn" onClick={() => onChange([...rules, emptyRule(defs[0])])}>
        Add {name.toLowerCase()}
      </button>
    </fieldset>
  );
}
