import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { fromLocalInput, toLocalInput } from '../../lib/local-time.ts';
import { SubmitButton, SubmitForm, CheckList, DateWindowFields, StatusField } from '../../components/form-pieces.tsx';
import { ErrorNote, Field } from '../../components/ui.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { BackLink } from '../../components/page-links.tsx';
import { useDetailPage } from '../../lib/detail-page.ts';
import type { Group } from '../customers/groups.tsx';
import { PriceGrid } from './price-grid.tsx';
import { GROUP_RULE, type PriceList } from './types.ts';
import { useApi } from '../../lib/api-hooks.ts';

/** A price list: its details (type, status, window, groups), then its price grid. */

const back = <BackLink to="/price-lists">Price lists</BackLink>;

function DetailsForm({ list, onSaved }: { list?: PriceList; onSaved: (l: PriceList) => void }) {
  const canWrite = useCanWrite();
  const [v, setV] = useState({
    title: list?.title ?? '',
    description: list?.description ?? '',
    type: list?.type ?? 'sale',
    status: list?.status ?? 'draft',
    starts_at: toLocalInput(list?.starts_at),
    ends_at: toLocalInput(list?.ends_at),
  });
  const [groups, setGroups] = useState<string[]>(list?.rules[GROUP_RULE] ?? []);
  const allGroups = useApi<{ customer_groups: Group[]; count: number }>(
    ['customer-groups', { all: true }],
    '/admin/customer-groups',
    { limit: 200, order: 'name' },
  );
  const save = useMutation({
    mutationFn: () => {
      const rules = { ...(list?.rules ?? {}) };
      if (groups.length) rules[GROUP_RULE] = groups;
      else delete rules[GROUP_RULE];
      const body = {
        title: v.title.trim(),
        description: v.description,
        type: v.type,
        status: v.status,
        starts_at: fromLocalInput(v.starts_at),
        ends_at: fromLocalInput(v.ends_at),
        rules,
      };
      return api<{ price_list: PriceList }>(list ? `/admin/price-lists/${list.id}` : '/admin/price-lists', {
        method: 'POST',
        body,
      });
    },
    onSuccess: (d) => onSaved(d.price_list),
  });
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <SubmitForm label={list ? 'Edit price list' : 'New price list'} onSubmit={() => save.mutate()}>
      <fieldset disabled={!canWrite} style={{ border: 0, padding: 0, margin: 0 }}>
        <div className="row">
          <Field label="Title" name="title" required value={v.title} onChange={set('title')} error={save.error} />
          <Field
            label="Description"
            name="description"
            value={v.description}
            onChange={set('description')}
            error={save.error}
          />
        </div>
        <div className="row">
          <Field
            label="Type"
            name="type"
            as="select"
            value={v.type}
            onChange={set('type')}
            error={save.error}
            hint={
              v.type === 'sale'
                ? 'Sale: shown as a reduction from the product’s own price.'
                : 'Override: replaces the product’s price outright.'
            }
          >
            <option value="sale">Sale</option>
            <option value="override">Override</option>
          </Field>
          <StatusField
            statuses={['draft', 'active'] as const}
            value={v.status}
            onChange={(status) => setV({ ...v, status })}
            error={save.error}
          />
          <DateWindowFields value={v} onChange={setV} error={save.error} />
        </div>
        <CheckList
          legend="Customer groups (none: everyone)"
          name="group"
          items={(allGroups.data?.customer_groups ?? []).map((g) => ({ id: g.id, label: g.name }))}
          picked={groups}
          onChange={setGroups}
          empty={allGroups.isPending ? 'Loading…' : 'No customer groups yet.'}
        >
          {allGroups.isError && <ErrorNote error={allGroups.error} />}
        </CheckList>
        <ErrorNote error={save.error} skipField />
        {canWrite && (
          <SubmitButton pending={save.isPending}>{list ? 'Save price list' : 'Create price list'}</SubmitButton>
        )}
      </fieldset>
    </SubmitForm>
  );
}

export function PriceListDetail() {
  const { id } = useParams();
  const page = useDetailPage<PriceList>({
    id,
    path: '/admin/price-lists',
    envelope: 'price_list',
    listKey: 'price-lists',
    noun: 'Price list',
    home: '/price-lists',
  });
  return (
    <DetailPage
      page={page}
      back={back}
      newTitle="New price list"
      title={(l) => l.title}
      remove={(l) => ({
        label: 'Delete price list',
        title: `Delete ${l.title}?`,
        body: 'Its prices stop applying at once; carts keep the prices their lines were given.',
      })}
      form={(l) => <DetailsForm key={l?.id} list={l} onSaved={page.saved} />}
    >
      {(l) => <PriceGrid key={`${l.id}-${l.prices.map((p) => p.id).join()}`} list={l} />}
    </DetailPage>
  );
}
