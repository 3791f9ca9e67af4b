import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { date } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { useDetailPage } from '../../lib/detail-page.ts';
import { useApi, useListQuery, useUrlPage } from '../../lib/api-hooks.ts';
import { Card, ErrorNote, Field, useDebounced } from '../../components/ui.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { ListPage } from '../../components/list-page.tsx';
import { Tabs } from '../../components/tabs.tsx';
import { BackLink, WriteLink } from '../../components/page-links.tsx';
import { PagedTable } from '../../components/query-table.tsx';
import { useToast } from '../../components/toasts.tsx';
import { SubmitButton, SubmitForm, UrlTextField } from '../../components/form-pieces.tsx';

/** Customers → Groups: the groups price lists are limited to, and who is in them. */

export interface Group {
  id: string;
  name: string;
  created_at: string;
}

interface Member {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

const LIMIT = 50;
const who = (c: Member) => [c.first_name, c.last_name].filter(Boolean).join(' ') || c.email || c.id;
const back = <BackLink to="/customers/groups">Customer groups</BackLink>;

/** Customers and their groups: two lists of one area. */
const TABS = [
  { to: '/customers', label: 'Customers', end: true },
  { to: '/customers/groups', label: 'Groups' },
];

export function CustomerTabs() {
  return <Tabs label="Customer sections" tabs={TABS} />;
}

export function GroupList() {
  const { q, offset, page } = useUrlPage();
  const list = useListQuery<{ customer_groups: Group[]; count: number }>(
    ['customer-groups', { q, offset }],
    '/admin/customer-groups',
    { q, limit: LIMIT, offset, order: 'name' },
  );
  return (
    <ListPage
      title="Customer groups"
      actions={<WriteLink to="/customers/groups/new">Add group</WriteLink>}
      intro={<CustomerTabs />}
      filters={<UrlTextField label="Search" name="q" type="search" />}
    >
      <PagedTable
        list={list}
        rows={(d) => d.customer_groups}
        empty="No customer groups yet."
        head={
          <>
            <th>Name</th>
            <th>Created</th>
          </>
        }
        row={(g) => (
          <tr key={g.id}>
            <td>
              <Link to={`/customers/groups/${g.id}`}>{g.name}</Link>
            </td>
            <td>{date(g.created_at)}</td>
          </tr>
        )}
        offset={offset}
        limit={LIMIT}
        onPage={page}
      />
    </ListPage>
  );
}

function GroupForm({ group, onSaved }: { group?: Group; onSaved: (g: Group) => void }) {
  const canWrite = useCanWrite();
  const [name, setName] = useState(group?.name ?? '');
  const save = useMutation({
    mutationFn: () =>
      api<{ customer_group: Group }>(group ? `/admin/customer-groups/${group.id}` : '/admin/customer-groups', {
        method: 'POST',
        body: { name: name.trim() },
      }),
    onSuccess: (d) => onSaved(d.customer_group),
  });
  return (
    <SubmitForm label={group ? 'Edit group' : 'New group'} onSubmit={() => save.mutate()}>
      <fieldset disabled={!canWrite} style={{ border: 0, padding: 0, margin: 0 }}>
        <Field
          label="Name"
          name="name"
          value={name}
          required
          onChange={(e) => setName(e.target.value)}
          error={save.error}
        />
        <ErrorNote error={save.error} skipField />
        {canWrite && <SubmitButton pending={save.isPending}>{group ? 'Save group' : 'Create group'}</SubmitButton>}
      </fieldset>
    </SubmitForm>
  );
}

/** Members: the admin customers list filtered by the group; add by searching customers. */
function Members({ group }: { group: Group }) {
  const client = useQueryClient();
  const notify = useToast();
  const canWrite = useCanWrite();
  const [offset, setOffset] = useState(0);
  const [search, setSearch] = useState('');
  const q = useDebounced(search);
  const members = useListQuery<{ customers: Member[]; count: number }>(
    ['customers', { groups: group.id, offset }],
    '/admin/customers',
    { groups: group.id, limit: LIMIT, offset },
  );
  const found = useApi<{ customers: Member[] }>(
    ['customers', { q }],
    '/admin/customers',
    { q, limit: 10 },
    { enabled: canWrite && q.trim().length > 0 },
  );
  const change = useMutation({
    mutationFn: (body: { add?: string[]; remove?: string[] }) =>
      api(`/admin/customer-groups/${group.id}/customers`, { method: 'POST', body }),
    onSuccess: async (_d, body) => {
      await client.invalidateQueries({ queryKey: ['customers'] });
      notify(body.add ? 'Customer added to the group' : 'Customer removed from the group', 'success');
    },
  });
  const inGroup = new Set(members.data?.customers.map((c) => c.id));
  return (
    <Card title={`Customers${members.data ? ` (${members.data.count})` : ''}`}>
      {canWrite && (
        <div className="filters">
          <Field
            label="Add a customer"
            name="member-search"
            type="search"
            placeholder="Email or name"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      )}
      {found.data && q && (
        <ul className="matches" aria-label="Matching customers">
          {found.data.customers.length === 0 && <li>No customer matches.</li>}
          {found.data.customers.map((c) => (
            <li key={c.id}>
              {who(c)} {c.email && c.email !== who(c) ? <small>{c.email}</small> : null}{' '}
              <button
                type="button"
                className="btn"
                disabled={inGroup.has(c.id) || change.isPending}
                onClick={() => change.mutate({ add: [c.id] })}
                aria-label={`Add ${who(c)}`}
              >
                {inGroup.has(c.id) ? 'In the group' : 'Add'}
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={change.error} />
      <PagedTable
        list={members}
        rows={(d) => d.customers}
        empty="Nobody is in this group yet."
        head={
          <>
            <th>Name</th>
            <th>Email</th>
            {canWrite && <th />}
          </>
        }
        row={(c) => (
          <tr key={c.id}>
            <td>
              <Link to={`/customers/${c.id}`}>{who(c)}</Link>
            </td>
            <td>{c.email ?? '—'}</td>
            {canWrite && (
              <td className="num">
                <button
                  type="button"
                  className="btn"
                  disabled={change.isPending}
                  onClick={() => change.mutate({ remove: [c.id] })}
                  aria-label={`Remove ${who(c)}`}
                >
                  Remove
                </button>
              </td>
            )}
          </tr>
        )}
        offset={offset}
        limit={LIMIT}
        onPage={setOffset}
      />
    </Card>
  );
}

export function GroupDetail() {
  const { id } = useParams();
  const page = useDetailPage<Group>({
    id,
    path: '/admin/customer-groups',
    envelope: 'customer_group',
    listKey: 'customer-groups',
    noun: 'Group',
    home: '/customers/groups',
  });
  return (
    <DetailPage
      page={page}
      back={back}
      newTitle="New customer group"
      title={(g) => g.name}
      remove={(g) => ({
        label: 'Delete group',
        title: `Delete ${g.name}?`,
        body: 'Its customers stay; price lists limited to this group no longer apply to them.',
      })}
      form={(g) => <GroupForm key={g?.id} group={g} onSaved={page.saved} />}
    >
      {(g) => <Members group={g} />}
    </DetailPage>
  );
}
