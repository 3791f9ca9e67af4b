import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { api } from '../../lib/api.ts';
import { date, dateTime, money } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Badge, Card, Empty, ErrorNote, Field, Loading, PageHeader, useDebounced } from '../../components/ui.tsx';
import { PagedTable } from '../../components/query-table.tsx';
import { useToast } from '../../components/toasts.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { CustomerTabs, GroupDetail, GroupList } from './groups.tsx';
import { ExportDialogButton } from '../jobs/import-dialog.tsx';
import { UrlTextField } from '../../components/form-pieces.tsx';

type Customer = Item<Ok<'/admin/customers'>['customers']>;

const LIMIT = 50;
const name = (c: Customer) => [c.first_name, c.last_name].filter(Boolean).join(' ') || '—';

function CustomerList() {
  const [params, set] = useUrlFilters();
  const q = params.get('q') ?? '';
  const account = params.get('has_account') ?? '';
  const offset = Number(params.get('offset') ?? 0);
  const debouncedQ = useDebounced(q);
  const canWrite = useCanWrite();
  const list = useQuery({
    queryKey: ['customers', { q: debouncedQ, account, offset }],
    queryFn: ({ signal }) =>
      api<{ customers: Customer[]; count: number }>('/admin/customers', {
        query: { q: debouncedQ, has_account: account || undefined, limit: LIMIT, offset },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="Customers"
        actions={
          <>
            <ExportDialogButton resource="customers" query={{ q: debouncedQ, has_account: account || undefined }} />
            {canWrite && (
              <Link className="btn btn-primary" to="/customers/new">
                Add customer
              </Link>
            )}
          </>
        }
      />
      <CustomerTabs />
      <Card>
        <search className="filters">
          <UrlTextField label="Search" name="q" type="search" placeholder="Email or name" />
          <Field
            label="Account"
            name="has_account"
            as="select"
            value={account}
            onChange={(e) => set('has_account', e.target.value)}
          >
            <option value="">Any</option>
            <option value="true">Registered</option>
            <option value="false">Guest</option>
          </Field>
        </search>
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
              <td>{c.has_account ? <Badge value="active">registered</Badge> : <Badge value="pending">guest</Badge>}</td>
              <td>{date(c.created_at)}</td>
            </tr>
          )}
          offset={offset}
          limit={LIMIT}
          onPage={(o) => set('offset', String(o))}
        />
      </Card>
    </>
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={customer ? 'Edit customer' : 'New customer'}>
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
        {canWrite && (
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {customer ? 'Save' : 'Create customer'}
          </button>
        )}
      </fieldset>
    </form>
  );
}

function CustomerDetail() {
  const { id } = useParams();
  const client = useQueryClient();
  const notify = useToast();
  const navigate = useNavigate();
  const creating = id === 'new';
  const customer = useQuery({
    queryKey: ['customer', id],
    queryFn: ({ signal }) => api<{ customer: Customer }>(`/admin/customers/${id}`, { signal }),
    enabled: !creating,
  });
  // Their orders come from the order list's customer filter, in parallel with the customer.
  const orders = useQuery({
    queryKey: ['orders', { customer_id: id }],
    queryFn: ({ signal }) =>
      api<Ok<'/admin/orders'>>('/admin/orders', {
        query: { customer_id: id, order: '-created_at', limit: 20 },
        signal,
      }),
    enabled: !creating,
  });
  const saved = async (c: Customer) => {
    client.setQueryData(['customer', c.id], { customer: c });
    await client.invalidateQueries({ queryKey: ['customers'] });
    notify(creating ? 'Customer created' : 'Customer saved', 'success');
    if (creating) navigate(`/customers/${c.id}`, { replace: true });
  };
  if (creating)
    return (
      <>
        <PageHeader
          back={
            <Link className="back" to="/customers">
              ← Customers
            </Link>
          }
          title="New customer"
        />
        <Card>
          <CustomerForm onSaved={saved} />
        </Card>
      </>
    );
  if (customer.isPending) return <Loading />;
  if (customer.isError) return <ErrorNote error={customer.error} />;
  const c = customer.data.customer;
  return (
    <>
      <PageHeader
        back={
          <Link className="back" to="/customers">
            ← Customers
          </Link>
        }
        title={
          <>
            {name(c)} {c.has_account ? <Badge value="active">registered</Badge> : <Badge value="pending">guest</Badge>}
          </>
        }
      />
      <Card title="Details">
        <CustomerForm key={c.id} customer={c} onSaved={saved} />
      </Card>
      <Card title={`Orders${orders.data ? ` (${orders.data.count})` : ''}`}>
        {orders.isPending ? (
          <Loading />
        ) : orders.isError ? (
          <ErrorNote error={orders.error} />
        ) : orders.data.orders.length === 0 ? (
          <Empty>No orders yet.</Empty>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Order</th>
                <th>Date</th>
                <th>Status</th>
                <th>Payment</th>
                <th className="num">Total</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.orders.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link to={`/orders/${o.id}`}>#{o.display_id}</Link>
                  </td>
                  <td>{dateTime(o.created_at)}</td>
                  <td>
                    <Badge value={o.status} />
                  </td>
                  <td>
                    <Badge value={o.payment_status} />
                  </td>
                  <td className="num">{money(o.total, o.currency_code)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
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
