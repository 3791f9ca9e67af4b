import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Card, ConfirmButton, ErrorNote, Field, Loading, PageHeader } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import type { Group } from '../customers/groups.tsx';
import { PriceGrid } from './price-grid.tsx';
import { GROUP_RULE, type PriceList } from './types.ts';

/** A price list: its details (type, status, window, groups), then its price grid. */

const back = (
  <Link className="back" to="/price-lists">
    ← Price lists
  </Link>
);

/** An ISO time as a datetime-local input shows it (local time), and back. */
const toLocal = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocal = (text: string) => (text ? new Date(text).toISOString() : null);

function DetailsForm({ list, onSaved }: { list?: PriceList; onSaved: (l: PriceList) => void }) {
  const canWrite = useCanWrite();
  const [v, setV] = useState({
    title: list?.title ?? '',
    description: list?.description ?? '',
    type: list?.type ?? 'sale',
    status: list?.status ?? 'draft',
    starts_at: toLocal(list?.starts_at ?? null),
    ends_at: toLocal(list?.ends_at ?? null),
  });
  const [groups, setGroups] = useState<string[]>(list?.rules[GROUP_RULE] ?? []);
  const allGroups = useQuery({
    queryKey: ['customer-groups', { all: true }],
    queryFn: ({ signal }) =>
      api<{ customer_groups: Group[]; count: number }>('/admin/customer-groups', {
        query: { limit: 200, order: 'name' },
        signal,
      }),
  });
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
        starts_at: fromLocal(v.starts_at),
        ends_at: fromLocal(v.ends_at),
        rules,
      };
      return api<{ price_list: PriceList }>(list ? `/admin/price-lists/${list.id}` : '/admin/price-lists', {
        method: 'POST',
        body,
      });
    },
    onSuccess: (d) => onSaved(d.price_list),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  return (
    <form onSubmit={submit} aria-label={list ? 'Edit price list' : 'New price list'}>
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
          <Field label="Status" name="status" as="select" value={v.status} onChange={set('status')} error={save.error}>
            <option value="draft">Draft</option>
            <option value="active">Active</option>
          </Field>
          <Field
            label="Starts"
            name="starts_at"
            type="datetime-local"
            value={v.starts_at}
            onChange={set('starts_at')}
            error={save.error}
          />
          <Field
            label="Ends"
            name="ends_at"
            type="datetime-local"
            value={v.ends_at}
            onChange={set('ends_at')}
            error={save.error}
          />
        </div>
        <fieldset className="group-picks">
          <legend>Customer groups (none: everyone)</legend>
          {allGroups.isError && <ErrorNote error={allGroups.error} />}
          {allGroups.data?.customer_groups.length === 0 && <small>No customer groups yet.</small>}
          {allGroups.data?.customer_groups.map((g) => (
            <Field
              key={g.id}
              label={g.name}
              name={`group-${g.id}`}
              type="checkbox"
              checked={groups.includes(g.id)}
              onChange={(e) => setGroups(e.target.checked ? [...groups, g.id] : groups.filter((id) => id !== g.id))}
            />
          ))}
        </fieldset>
        <ErrorNote error={save.error} skipField />
        {canWrite && (
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {list ? 'Save price list' : 'Create price list'}
          </button>
        )}
      </fieldset>
    </form>
  );
}

export function PriceListDetail() {
  const { id } = useParams();
  const client = useQueryClient();
  const notify = useToast();
  const navigate = useNavigate();
  const canWrite = useCanWrite();
  const creating = id === 'new';
  const list = useQuery({
    queryKey: ['price-list', id],
    queryFn: ({ signal }) => api<{ price_list: PriceList }>(`/admin/price-lists/${id}`, { signal }),
    enabled: !creating,
  });
  const remove = useMutation({
    mutationFn: () => api(`/admin/price-lists/${id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['price-lists'] });
      notify('Price list deleted', 'success');
      navigate('/price-lists', { replace: true });
    },
  });
  const saved = async (l: PriceList) => {
    client.setQueryData(['price-list', l.id], { price_list: l });
    await client.invalidateQueries({ queryKey: ['price-lists'] });
    notify(creating ? 'Price list created' : 'Price list saved', 'success');
    if (creating) navigate(`/price-lists/${l.id}`, { replace: true });
  };
  if (creating)
    return (
      <>
        <PageHeader back={back} title="New price list" />
        <Card>
          <DetailsForm onSaved={saved} />
        </Card>
      </>
    );
  if (list.isPending) return <Loading />;
  if (list.isError) return <ErrorNote error={list.error} />;
  const l = list.data.price_list;
  return (
    <>
      <PageHeader
        back={back}
        title={l.title}
        actions={
          canWrite && (
            <ConfirmButton
              label="Delete price list"
              title={`Delete ${l.title}?`}
              body="Its prices stop applying at once; carts keep the prices their lines were given."
              danger
              onConfirm={() => remove.mutate()}
            />
          )
        }
      />
      <ErrorNote error={remove.error} />
      <Card title="Details">
        <DetailsForm key={l.id} list={l} onSaved={saved} />
      </Card>
      <PriceGrid key={`${l.id}-${l.prices.map((p) => p.id).join()}`} list={l} />
    </>
  );
}
