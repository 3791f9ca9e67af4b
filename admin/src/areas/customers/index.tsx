import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Route, Routes, useParams } from 'react-router';
import { useDetailPage } from '../../lib/detail-page.ts';
import { useApi, useListQuery, useUrlPage } from '../../lib/api-hooks.ts';
import { api } from '../../lib/api.ts';
import { date } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Badge, Card, ErrorNote, Field } from '../../components/ui.tsx';
import { DetailPage } from '../../components/detail-page.tsx';
import { ListPage } from '../../components/list-page.tsx';
import { BackLink, WriteLink } from '../../components/page-links.tsx';
import { PagedTable } from '../../components/query-table.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { CustomerTabs, GroupDetail, GroupList } from './groups.tsx';
import { OrderTable } from '../orders/order-table.tsx';
import { ExportDialogButton } from '../jobs/import-dialog.tsx';
import { SubmitButton, SubmitForm, UrlSelectField, UrlTextField } from '../../components/form-pieces.tsx';

type Customer = Item<Ok<'/admin/customers'>['customers']>;

const LIMIT = 50;

function AccountBadge({ c }: { c: Customer }) {
  return c.has_account ? <Badge value="active">registered</Badge> : <Badge value="pending">guest</Badge>;
}
const name = (c: Customer) => [c.first_name, c.last_name].filter(Boolean).join(' ') || '—';

const ACCOUNTS = [
  { value: 'true', label: 'Registered' },
  { value: 'false', label: 'Guest' },
];

function CustomerList() {
  const { q, offset, page, params } = useUrlPage();
  const account = params.get('has_account') ?? '';
  const list = useListQuery<{ customers: Customer[]; count: number }>(
    ['customers', { q, account, offset }],
    '/admin/customers',
    { q, has_account: account || undefined, limit: LIMIT, offset },
  );
  return (
    <ListPage
      title="Customers"
      actions={
        <>
          <ExportDialogButton resource="customers" query={{ q, has_account: account || undefined }} />
          <WriteLink to="/customers/new">Add customer</WriteLink>
        </>
      }
      intro={<CustomerTabs />}
      filters={
        <>
          <UrlTextField label="Search" name="q" type="search" placeholder="Email or name" />
          <UrlSelectField label="Account" name="has_account" none="Any" choices={ACCOUNTS} />
        </>
      }
    >
      <PagedTable
        list={list}
        rows={(d) => d.customers}
        empty="No customers found."
        head={
          <>
            <th>Name</th>
            <th>Email</th>
            <th>Account</th>
            <th>Since</th>
          </>
        }
        row={(c) => (
          <tr key={c.id}>
            <td>
              <Link to={`/customers/${c.id}`}>{name(c)}</Link>
            </td>
            <td>{c.email ?? '—'}</td>
            <td>
              <AccountBadge c={c} />
            </td>
            <td>{date(c.created_at)}</td>
          </tr>
        )}
        offset={offset}
        limit={LIMIT}
        onPage={page}
      />
    </ListPage>
  );
}

const FIELDS: [keyof Customer, string, string][] = [
  ['email', 'Email', 'email'],
  ['first_name', 'First name', 'text'],
  ['last_name', 'Last name', 'text'],
  ['phone', 'Phone', 'tel'],
  ['company_name', 'Company', 'text'],
];

function CustomerForm({ customer, onSaved }: { customer?: Customer; onSaved: (c: Customer) => void }) {
  const canWrite = useCanWrite();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(FIELDS.map(([k]) => [k, String(customer?.[k] ?? '')])),
  );
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, string | null> = {};
      for (const [k] of FIELDS) {
        if (k === 'email' && customer?.has_account) continue;
        const v = values[k].trim();
        if (v) body[k] = v;
        else if (customer && k !== 'email') body[k] = null; // cleared on an edit
      }
      return api<{ customer: Customer }>(customer ? `/admin/customers/${customer.id}` : '/admin/customers', {
        method: 'POST',
        body,
      });
    },
    onSuccess: (d) => onSaved(d.customer),
  });
  return (
    <SubmitForm label={customer ? 'Edit customer' : 'New customer'} onSubmit={() => save.mutate()}>
      <fieldset disabled={!canWrite} style={{ border: 0, padding: 0, margin: 0 }}>
        <div className="row">
          {FIELDS.map(([k, label, type]) => (
            <Field
              key={k}
              label={label}
              name={k}
              type={type}
              value={values[k]}
              disabled={k === 'email' && customer?.has_account}
              hint={
                k === 'email' && customer?.has_account ? 'A registered customer changes their own email.' : undefined
              }
              onChange={(e) => setValues({ ...values, [k]: e.target.value })}
              error={save.error}
            />
          ))}
        </div>
        <ErrorNote error={save.error} skipField />
        {canWrite && <SubmitButton pending={save.isPending}>{customer ? 'Save' : 'Create customer'}</SubmitButton>}
      </fieldset>
    </SubmitForm>
  );
}

function CustomerDetail() {
  const { id } = useParams();
  const page = useDetailPage<Customer>({
    id,
    path: '/admin/customers',
    envelope: 'customer',
    listKey: 'customers',
    noun: 'Customer',
    home: '/customers',
  });
  // Their orders come from the order list's customer filter, in parallel with the customer.
  const orders = useApi<Ok<'/admin/orders'>>(
    ['orders', { customer_id: id }],
    '/admin/orders',
    { customer_id: id, order: '-created_at', limit: 20 },
    { enabled: !page.creating },
  );
  return (
    <DetailPage
      page={page}
      back={<BackLink to="/customers">Customers</BackLink>}
      newTitle="New customer"
      title={(c) => (
        <>
          {name(c)} <AccountBadge c={c} />
        </>
      )}
      form={(c) => <CustomerForm key={c?.id} customer={c} onSaved={page.saved} />}
    >
      {() => (
        <Card title={`Orders${orders.data ? ` (${orders.data.count})` : ''}`}>
          <OrderTable list={orders} empty="No orders yet." />
        </Card>
      )}
    </DetailPage>
  );
}

export default function CustomersArea() {
  return (
    <Routes>
      <Route index element={<CustomerList />} />
      <Route path="groups" element={<GroupList />} />
      <Route path="groups/:id" element={<GroupDetail />} />
      <Route path=":id" element={<CustomerDetail />} />
    </Routes>
  );
}
