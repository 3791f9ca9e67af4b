import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { api } from '../../lib/api.ts';
import { dateTime, money } from '../../lib/format.ts';
import {
  Badge,
  Card,
  Empty,
  ErrorNote,
  Field,
  Loading,
  PageHeader,
  Pager,
  useDebounced,
} from '../../components/ui.tsx';
import { FULFILLMENT_STATUSES, ORDER_STATUSES, PAYMENT_STATUSES, type Order } from './types.ts';
import { LIMIT, orderQuery } from './query.ts';
import { ExportDialogButton } from '../jobs/import-dialog.tsx';
import { UrlTextField } from '../../components/form-pieces.tsx';

const FILTERS = ['status', 'payment_status', 'fulfillment_status', 'customer_id', 'email', 'from', 'to', 'q'] as const;

export function OrderList() {
  const [params, set, setParams] = useUrlFilters();
  const debounced = useDebounced(params.toString(), 250);
  const query = orderQuery(new URLSearchParams(debounced));
  const list = useQuery({
    queryKey: ['orders', query],
    queryFn: ({ signal }) => api<{ orders: Order[]; count: number }>('/admin/orders', { query, signal }),
    placeholderData: keepPreviousData,
  });
  const select = (key: string, label: string, values: string[]) => (
    <Field
      label={label}
      name={key}
      as="select"
      value={params.get(key) ?? ''}
      onChange={(e) => set(key, e.target.value)}
    >
      <option value="">Any</option>
      {values.map((v) => (
        <option key={v} value={v}>
          {v.replace(/_/g, ' ')}
        </option>
      ))}
    </Field>
  );
  const filtered = FILTERS.some((f) => params.get(f));
  return (
    <>
      <PageHeader title="Orders" actions={<ExportDialogButton resource="orders" query={query} />} />
      <Card>
        <search className="filters">
          <UrlTextField label="Search" name="q" type="search" placeholder="Email, order number" />
          {select('status', 'Status', ORDER_STATUSES)}
          {select('payment_status', 'Payment', PAYMENT_STATUSES)}
          {select('fulfillment_status', 'Fulfillment', FULFILLMENT_STATUSES)}
          <UrlTextField label="Email" name="email" type="email" />
          <UrlTextField label="Customer id" name="customer_id" />
          <UrlTextField label="From" name="from" type="date" />
          <UrlTextField label="To" name="to" type="date" />
          {filtered && (
            <button type="button" className="btn" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
              Clear filters
            </button>
          )}
        </search>
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorNote error={list.error} />
        ) : list.data.orders.length === 0 ? (
          <Empty>{filtered ? 'No order matches these filters.' : 'No orders yet.'}</Empty>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Order</th>
                  <th>Date</th>
                  <th>Customer</th>
                  <th>Status</th>
                  <th>Payment</th>
                  <th>Fulfillment</th>
                  <th className="num">Total</th>
                </tr>
              </thead>
              <tbody>
                {list.data.orders.map((o) => (
                  <tr key={o.id}>
                    <td>
                      <Link to={`/orders/${o.id}`}>#{o.display_id}</Link>
                    </td>
                    <td>{dateTime(o.created_at)}</td>
                    <td>{o.email}</td>
                    <td>
                      <Badge value={o.status} />
                    </td>
                    <td>
                      <Badge value={o.payment_status} />
                    </td>
                    <td>
                      <Badge value={o.fulfillment_status} />
                    </td>
                    <td className="num">{money(o.total, o.currency_code)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.data && (
          <Pager
            offset={Number(params.get('offset') ?? 0)}
            limit={LIMIT}
            count={list.data.count}
            shown={list.data.orders.length}
            onChange={(o) => set('offset', String(o))}
          />
        )}
      </Card>
    </>
  );
}
