import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { toMinor } from '../../lib/format.ts';
import { useToast } from '../../components/toasts.tsx';
import { ErrorNote, Field } from '../../components/ui.tsx';
import { SubmitButton, SubmitForm, StatusField } from '../../components/form-pieces.tsx';
import { fromLocalInput } from '../../lib/local-time.ts';
import type { Ok } from '../../api/types.ts';
import { CampaignChoice } from './campaign-fields.tsx';
import { EMPTY, promotionBody, tryBody, type Draft } from './promotion-draft.ts';
import { useRuleLabels } from './rule-lists.ts';
import { RulesEditor } from './rules-editor.tsx';
import { CART_ATTRIBUTES, ITEM_ATTRIBUTES, SHIPPING_ATTRIBUTES, defOf, promotionText, type Labels } from './words.ts';

/**
 * Create or edit a promotion: how it applies (code or automatic), what it gives (standard, or
 * buy X get Y), on what (target rules), when (conditions on the cart) and its campaign. The
 * sentence under the form says the promotion in plain words as it is being made.
 */

/** The identifier Medusa wants for a campaign, made from its name. */
const identifierOf = (name: string) =>
  name
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

async function campaignFor(v: Draft): Promise<string | null> {
  if (v.campaign === 'existing') return v.campaign_id || null;
  if (v.campaign !== 'new') return null;
  const limit =
    v.budget_limit.trim() === ''
      ? null
      : v.budget_type === 'spend'
        ? toMinor(v.budget_limit, v.currency_code)
        : Number(v.budget_limit);
  const { campaign } = await api<Ok<'/admin/campaigns', 'post'>>('/admin/campaigns', {
    method: 'POST',
    body: {
      name: v.campaign_name,
      campaign_identifier: identifierOf(v.campaign_name) || identifierOf(v.code),
      budget: { type: v.budget_type, limit, currency_code: v.budget_type === 'spend' ? v.currency_code : null },
      starts_at: fromLocalInput(v.starts_at),
      ends_at: fromLocalInput(v.ends_at),
    },
  });
  return campaign.id;
}

/** Buy X get Y: how many of which items are bought, and how many the customer gets. */
function BuyGetFields({
  v,
  setV,
  labels,
  error,
}: {
  v: Draft;
  setV: (next: Draft) => void;
  labels: Labels;
  error: unknown;
}) {
  const quantity = (name: 'buy_rules_min_quantity' | 'apply_to_quantity', label: string, hint: string) => (
    <div className="row">
      <Field
        label={label}
        name={name}
        type="number"
        min={1}
        value={v[name]}
        onChange={(e) => setV({ ...v, [name]: e.target.value })}
        error={error}
        hint={hint}
      />
    </div>
  );
  return (
    <>
      {quantity('buy_rules_min_quantity', 'Customer buys at least', 'units of the items below')}
      <RulesEditor
        legend="Items that count as bought"
        name="Buy rule"
        empty="Add at least one: the products, collections… the customer buys."
        defs={ITEM_ATTRIBUTES}
        rules={v.buy_rules}
        labels={labels}
        onChange={(buy_rules) => setV({ ...v, buy_rules })}
      />
      {quantity('apply_to_quantity', 'Customer gets', 'units of the items below, the cheapest first')}
    </>
  );
}

export function PromotionForm({
  initial = EMPTY,
  id,
  onSaved,
}: {
  initial?: Draft;
  /** The promotion edited; none for a new one. */
  id?: string;
  onSaved: () => void;
}) {
  const [v, setV] = useState<Draft>(initial);
  const client = useQueryClient();
  const notify = useToast();
  // Names of what the rules pick, for the sentence under the form (the rows keep their own).
  const labels = useRuleLabels([...v.rules, ...v.target_rules, ...v.buy_rules]);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const fixed = v.method === 'fixed';
  const buyget = v.type === 'buyget';
  const allocation = v.target_type === 'order' ? 'across' : v.allocation;
  const amountRule = v.rules.some((r) => defOf(r.attribute).source === 'amount');
  const save = useMutation({
    mutationFn: async () => {
      const body = promotionBody(v, null); // checked before a campaign is made for it
      const campaign_id = await campaignFor(v);
      return id
        ? api(`/admin/promotions/${id}`, { method: 'POST', body: { ...body, campaign_id } })
        : api('/admin/promotions', { method: 'POST', body: { ...body, campaign_id } });
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['promotions'] });
      notify(id ? `${v.code.trim()} saved` : 'Promotion created', 'success');
      onSaved();
    },
  });
  const preview = tryBody(v);
  const targetDefs = v.target_type === 'shipping_methods' ? SHIPPING_ATTRIBUTES : ITEM_ATTRIBUTES;
  return (
    <SubmitForm label={id ? 'Edit promotion' : 'New promotion'} onSubmit={() => save.mutate()}>
      <div className="row">
        <Field
          label="Code"
          name="code"
          required
          value={v.code}
          onChange={set('code')}
          error={save.error}
          hint={v.is_automatic === 'automatic' ? 'A name for it; shoppers do not type it' : 'What shoppers type'}
        />
        <Field
          label="How it applies"
          name="is_automatic"
          as="select"
          value={v.is_automatic}
          onChange={set('is_automatic')}
        >
          <option value="code">With a code</option>
          <option value="automatic">Automatically</option>
        </Field>
        <StatusField
          statuses={['draft', 'active', 'inactive'] as const}
          value={v.status as 'draft' | 'active' | 'inactive'}
          onChange={(status) => setV({ ...v, status })}
          error={save.error}
        />
        <Field
          label="Kind"
          name="type"
          as="select"
          value={v.type}
          onChange={(e) =>
            setV({
              ...v,
              type: e.target.value as Draft['type'],
              value: e.target.value === 'buyget' && !v.value ? '100' : v.value,
              target_rules: [],
            })
          }
        >
          <option value="standard">A discount</option>
          <option value="buyget">Buy X get Y</option>
        </Field>
      </div>
      {buyget && <BuyGetFields v={v} setV={setV} labels={labels} error={save.error} />}
      <div className="row">
        <Field label="Discount" name="method" as="select" value={v.method} onChange={set('method')}>
          <option value="percentage">A percentage</option>
          <option value="fixed">A fixed amount</option>
        </Field>
        <Field
          label={fixed ? 'Amount' : 'Percentage'}
          name="value"
          required
          inputMode="decimal"
          value={v.value}
          onChange={set('value')}
          error={save.error}
          hint={fixed ? 'e.g. 5.00' : buyget ? '100 gives them free' : 'e.g. 10 for 10 %'}
        />
        {(fixed || amountRule || (v.campaign === 'new' && v.budget_type === 'spend')) && (
          <Field
            label="Currency"
            name="currency_code"
            required
            value={v.currency_code}
            onChange={set('currency_code')}
            error={save.error}
            hint="ISO 4217, e.g. eur"
          />
        )}
      </div>
      {!buyget && (
        <div className="row">
          <Field
            label="Applies to"
            name="target_type"
            as="select"
            value={v.target_type}
            onChange={(e) => setV({ ...v, target_type: e.target.value as Draft['target_type'], target_rules: [] })}
          >
            <option value="items">Items</option>
            <option value="order">The order</option>
            <option value="shipping_methods">Shipping</option>
          </Field>
          {v.target_type !== 'order' && (
            <Field
              label="Allocation"
              name="allocation"
              as="select"
              value={v.allocation}
              onChange={set('allocation')}
              hint={
                allocation === 'each'
                  ? 'The discount applies to each unit, up to the quantity beside'
                  : 'The discount is spread across the lines, by their amounts'
              }
            >
              <option value="across">Spread across</option>
              <option value="each">Each</option>
            </Field>
          )}
          {allocation === 'each' && v.target_type === 'items' && (
            <Field
              label="Units per line at most"
              name="max_quantity"
              type="number"
              min={1}
              value={v.max_quantity}
              onChange={set('max_quantity')}
              error={save.error}
            />
          )}
        </div>
      )}
      {(buyget || v.target_type !== 'order') && (
        <RulesEditor
          legend={
            buyget ? 'Items given at the discount' : `Only ${v.target_type === 'items' ? 'items' : 'shipping'} where`
          }
          name="Target"
          empty={buyget ? 'Add at least one: what the customer gets.' : 'No target rule: every line qualifies.'}
          defs={buyget ? ITEM_ATTRIBUTES : targetDefs}
          rules={v.target_rules}
          labels={labels}
          onChange={(target_rules) => setV({ ...v, target_rules })}
        />
      )}
      <RulesEditor
        legend="When the cart (all must hold)"
        name="Condition"
        empty="No condition: every cart qualifies."
        defs={CART_ATTRIBUTES}
        rules={v.rules}
        labels={labels}
        onChange={(rules) => setV({ ...v, rules })}
      />
      <CampaignChoice v={v} setV={setV} error={save.error} />
      <p className="note words">
        <strong>In words: </strong>
        {preview
          ? promotionText(
              {
                type: preview.type,
                // The form's currency is the one amounts in rules are typed in.
                application_method: { ...preview.application_method, currency_code: v.currency_code },
                rules: preview.rules,
              },
              labels,
            )
          : 'fill in the discount to read the promotion here.'}
      </p>
      <ErrorNote error={save.error} skipField />
      <SubmitButton pending={save.isPending}>{id ? 'Save promotion' : 'Create promotion'}</SubmitButton>
    </SubmitForm>
  );
}
