import { DateWindowFields } from '../../components/form-pieces.tsx';
import { Field } from '../../components/ui.tsx';
import type { Ok } from '../../api/types.ts';
import { budgetText } from './budget.ts';
import type { Draft } from './promotion-draft.ts';
import { useApi } from '../../lib/api-hooks.ts';

/** A campaign's budget limit as typed: a number of uses, or an amount in the budget's currency. */
export function BudgetLimitField({
  type,
  value,
  onChange,
  error,
  name = 'budget_limit',
}: {
  type: 'usage' | 'spend';
  value: string;
  onChange: (text: string) => void;
  error?: unknown;
  name?: string;
}) {
  return (
    <Field
      label="Budget limit"
      name={name}
      inputMode="decimal"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={type === 'usage' ? 'orders; empty: no limit' : 'in the currency; empty: no limit'}
    />
  );
}

/** The promotion form's campaign: none, an existing one (with its budget used), or a new one made with it. */
export function CampaignChoice({ v, setV, error }: { v: Draft; setV: (next: Draft) => void; error: unknown }) {
  const campaigns = useApi<Ok<'/admin/campaigns'>>(['promotions', 'campaigns'], '/admin/campaigns', { limit: 100 });
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <>
      <div className="row">
        <Field label="Campaign" name="campaign" as="select" value={v.campaign} onChange={set('campaign')}>
          <option value="none">None</option>
          <option value="new">A new campaign</option>
          {((campaigns.data?.campaigns.length ?? 0) > 0 || v.campaign === 'existing') && (
            <option value="existing">An existing campaign</option>
          )}
        </Field>
        {v.campaign === 'existing' && (
          <Field
            label="Existing campaign"
            name="campaign_id"
            as="select"
            required
            value={v.campaign_id}
            onChange={set('campaign_id')}
          >
            <option value="">Pick one</option>
            {campaigns.data?.campaigns.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({budgetText(c)})
              </option>
            ))}
          </Field>
        )}
      </div>
      {v.campaign === 'new' && (
        <div className="row">
          <Field
            label="Campaign name"
            name="campaign_name"
            required
            value={v.campaign_name}
            onChange={set('campaign_name')}
            error={error}
          />
          <Field label="Budget" name="budget_type" as="select" value={v.budget_type} onChange={set('budget_type')}>
            <option value="usage">Number of uses</option>
            <option value="spend">Amount spent</option>
          </Field>
          <BudgetLimitField
            type={v.budget_type}
            value={v.budget_limit}
            onChange={(budget_limit) => setV({ ...v, budget_limit })}
            error={error}
          />
          <DateWindowFields value={v} onChange={setV} />
        </div>
      )}
    </>
  );
}
