import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { dateTime, toMinor } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { useToast } from '../../components/toasts.tsx';
import { SubmitButton, DateWindowFields } from '../../components/form-pieces.tsx';
import { fromLocalInput, toLocalInput } from '../../lib/local-time.ts';
import { Card, ConfirmButton, ErrorNote } from '../../components/ui.tsx';
import { useToastWrite } from '../../lib/toast-write.ts';
import { QueryTable } from '../../components/query-table.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { budgetText } from './budget.ts';
import { BudgetLimitField } from './campaign-fields.tsx';
import { digitsOf } from './words.ts';
import { useApi } from '../../lib/api-hooks.ts';

/** The Campaigns card: each campaign's dates and budget used; its limit and dates edited in place. */

type Campaign = Item<Ok<'/admin/campaigns'>['campaigns']>;

const KEY = ['promotions', 'campaigns'];

function limitText(c: Campaign): string {
  const b = c.budget;
  if (!b || b.limit == null) return '';
  if (b.type === 'usage') return String(b.limit);
  const digits = digitsOf(b.currency_code ?? 'eur');
  return (b.limit / 10 ** digits).toFixed(digits);
}

function CampaignForm({ c, onDone }: { c: Campaign; onDone: () => void }) {
  const [v, setV] = useState({
    limit: limitText(c),
    starts_at: toLocalInput(c.starts_at),
    ends_at: toLocalInput(c.ends_at),
  });
  const client = useQueryClient();
  const notify = useToast();
  const save = useMutation({
    mutationFn: () => {
      const b = c.budget;
      let limit: number | null = null;
      if (v.limit.trim() !== '') {
        limit = b?.type === 'spend' ? toMinor(v.limit, b.currency_code ?? 'eur') : Number(v.limit);
        if (limit === null || !Number.isInteger(limit) || limit < 0)
          throw new Error(
            b?.type === 'spend' ? 'The limit is an amount, e.g. 500.00' : 'The limit is a number of uses',
          );
      }
      return api(`/admin/campaigns/${c.id}`, {
        method: 'POST',
        body: {
          ...(b ? { budget: { limit } } : {}),
          starts_at: fromLocalInput(v.starts_at),
          ends_at: fromLocalInput(v.ends_at),
        },
      });
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['promotions'] });
      notify(`${c.name} saved`, 'success');
      onDone();
    },
  });
  return (
    <form
      aria-label={`Edit ${c.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div className="row">
        {c.budget && (
          <BudgetLimitField
            name="limit"
            type={c.budget.type as 'usage' | 'spend'}
            value={v.limit}
            onChange={(limit) => setV({ ...v, limit })}
            error={save.error}
          />
        )}
        <DateWindowFields value={v} onChange={setV} error={save.error} />
      </div>
      <ErrorNote error={save.error} skipField />
      <SubmitButton pending={save.isPending}>Save campaign</SubmitButton>{' '}
      <button type="button" className="btn" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

function CampaignRow({ c, canWrite }: { c: Campaign; canWrite: boolean }) {
  const [editing, setEditing] = useState(false);
  const remove = useToastWrite(
    () => api(`/admin/campaigns/${c.id}`, { method: 'DELETE' }),
    ['promotions'],
    () => `${c.name} deleted`,
  );
  return (
    <>
      <tr>
        <td>{c.name}</td>
        <td>
          <code>{c.campaign_identifier}</code>
        </td>
        <td>
          {!c.starts_at && !c.ends_at
            ? 'Always'
            : `${c.starts_at ? dateTime(c.starts_at) : '…'} – ${c.ends_at ? dateTime(c.ends_at) : '…'}`}
        </td>
        <td>{budgetText(c)}</td>
        {canWrite && (
          <td className="num">
            <button type="button" className="btn" onClick={() => setEditing(!editing)} aria-expanded={editing}>
              Edit<span className="sr-only"> {c.name}</span>
            </button>{' '}
            <ConfirmButton
              label="Delete"
              title={`Delete campaign ${c.name}?`}
              body="Its promotions stay, without its dates and budget."
              danger
              onConfirm={() => remove.mutate()}
            />
          </td>
        )}
      </tr>
      {editing && (
        <tr>
          <td colSpan={5}>
            <CampaignForm c={c} onDone={() => setEditing(false)} />
          </td>
        </tr>
      )}
    </>
  );
}

export function CampaignsCard() {
  const canWrite = useCanWrite();
  const campaigns = useApi<Ok<'/admin/campaigns'>>(KEY, '/admin/campaigns', { limit: 100 });
  return (
    <Card title="Campaigns">
      <QueryTable
        list={campaigns}
        rows={(d) => d.campaigns}
        empty="No campaigns yet. A campaign is made with a promotion, to give it dates and a budget."
        head={
          <>
            <th>Name</th>
            <th>Identifier</th>
            <th>When</th>
            <th>Budget used</th>
            {canWrite && <th aria-label="Actions" />}
          </>
        }
        row={(c) => <CampaignRow key={`${c.id}-${c.updated_at}`} c={c} canWrite={canWrite} />}
      />
    </Card>
  );
}
