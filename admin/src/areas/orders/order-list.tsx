import { useListQuery, useUrlPage } from '../../lib/api-hooks.ts';
import { useDebounced } from '../../components/ui.tsx';
import { ListPage } from '../../components/list-page.tsx';
import { QueryPager } from '../../components/query-table.tsx';
import { UrlSelectField, UrlTextField, choicesOf } from '../../components/form-pieces.tsx';
import { OrderTable } from './order-table.tsx';
import { FULFILLMENT_STATUSES, ORDER_STATUSES, PAYMENT_STATUSES, type Order } from './types.ts';
import { LIMIT, orderQuery } from './query.ts';
import { ExportDialogButton } from '../jobs/import-dialog.tsx';

const FILTERS = ['status', 'payment_status', 'fulfillment_status', 'customer_id', 'email', 'from', 'to', 'q'] as const;

export function OrderList() {
  const { params, setParams, offset, page } = useUrlPage();
  const debounced = useDebounced(params.toString(), 250);
  const query = orderQuery(new URLSearchParams(debounced));
  const list = useListQuery<{ orders: Order[]; count: number }>(['orders', query], '/admin/orders', query);
  const select = (key: string, label: string, values: string[]) => (
    <UrlSelectField label={label} name={key} none="Any" choices={choicesOf(values, (v) => v.replace(/_/g, ' '))} />
  );
  const filtered = FILTERS.some((f) => params.get(f));
  return (
    <ListPage
      title="Orders"
      actions={<ExportDialogButton resource="orders" query={query} />}
      filters={
        <>
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
        </>
      }
    >
      <OrderTable list={list} empty={filtered ? 'No order matches these filters.' : 'No orders yet.'} full />
      <QueryPager list={list} rows={(d) => d.orders} offset={offset} limit={LIMIT} onPage={page} />
    </ListPage>
  );
}
