import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { dateTime, money } from '../../lib/format.ts';
import { Badge } from '../../components/ui.tsx';
import { QueryTable } from '../../components/query-table.tsx';

type OrderRow = {
  id: string;
  display_id: number;
  created_at: string;
  email: string | null;
  status: string;
  payment_status: string;
  fulfillment_status: string;
  total: number;
  currency_code: string;
};

/**
 * Orders as a table, newest first as the read returns them: the order list's (`full`: with the
 * customer and the fulfilment, scrolling sideways when wider than its card) and a customer's page.
 */
export function OrderTable<D extends { orders: OrderRow[] }>({
  list,
  empty,
  full,
}: {
  list: UseQueryResult<D>;
  empty: ReactNode;
  full?: boolean;
}) {
  return (
    <QueryTable
      list={list}
      rows={(d) => d.orders}
      empty={empty}
      wrap={full}
      head={
        <>
          <th>Order</th>
          <th>Date</th>
          {full && <th>Customer</th>}
          <th>Status</th>
          <th>Payment</th>
          {full && <th>Fulfillment</th>}
          <th className="num">Total</th>
        </>
      }
      row={(o) => (
        <tr key={o.id}>
          <td>
            <Link to={`/orders/${o.id}`}>#{o.display_id}</Link>
          </td>
          <td>{dateTime(o.created_at)}</td>
          {full && <td>{o.email}</td>}
          <td>
            <Badge value={o.status} />
          </td>
          <td>
            <Badge value={o.payment_status} />
          </td>
          {full && (
            <td>
              <Badge value={o.fulfillment_status} />
            </td>
          )}
          <td className="num">{money(o.total, o.currency_code)}</td>
        </tr>
      )}
    />
  );
}
