import { Link } from 'react-router';

import { money } from '../../lib/format.ts';
import { Card, Empty, ErrorNote, Loading, PageHeader } from '../../components/ui.tsx';
import { ExtensionSlot } from '../../extensions/slot.tsx';
import { SalesChart } from './sales-chart.tsx';
import type { Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

type Dashboard = Ok<'/admin/dashboard'>;

type Updates = Ok<'/admin/plugins/check-updates'>;

const offset = -new Date().getTimezoneOffset();

function localDay(d: Date): string {
  return new Date(d.getTime() + offset * 60_000).toISOString().slice(0, 10);
}

export default function HomePage() {
  // One call for the figures; plugin updates ask the marketplace, so they load on their own.
  const dash = useApi<Dashboard>(['dashboard', offset], '/admin/dashboard', { utc_offset_minutes: offset });
  const updates = useApi<Updates>(['plugin-updates'], '/admin/plugins/check-updates', undefined, {
    staleTime: 5 * 60_000,
    retry: false,
  });

  const today = localDay(new Date());
  const todays = dash.data?.sales.filter((s) => s.day === today) ?? [];
  const orders = todays.reduce((n, s) => n + s.orders, 0);

  return (
    <>
      <PageHeader title="Home" />
      <ExtensionSlot name="dashboard" />
      {dash.isPending ? (
        <Loading />
      ) : dash.isError ? (
        <ErrorNote error={dash.error} />
      ) : (
        <>
          <div className="grid">
            <Card title="Orders today">
              <div className="stat">{orders}</div>
              <Link to="/orders">View orders</Link>
            </Card>
            <Card title="Revenue today">
              <div className="stat">
                {todays.length
                  ? todays.map((s) => money(s.revenue, s.currency_code)).join(' · ')
                  : money(0, dash.data.sales[0]?.currency_code ?? 'eur')}
              </div>
              <span className="muted">canceled orders not counted</span>
            </Card>
            <Card title="Unread notifications">
              <div className="stat">{dash.data.unread_notifications}</div>
              <Link to="/notifications">Open notifications</Link>
            </Card>
            <Card title="Plugin updates">
              {updates.isPending ? (
                <Loading label="Asking the marketplace" />
              ) : updates.isError ? (
                <span className="muted">Marketplace not reachable: {(updates.error as Error).message}</span>
              ) : (
                <>
                  <div className="stat">{updates.data.updates.length}</div>
                  <Link to="/plugins">{updates.data.updates.length ? 'Review updates' : 'All plugins up to date'}</Link>
                </>
              )}
            </Card>
          </div>
          <div className="cols" style={{ marginTop: 16 }}>
            <Card title={`Sales, last ${dash.data.days} days`}>
              <SalesChart sales={dash.data.sales} days={dash.data.days} today={today} />
            </Card>
            <Card title={`Low stock (≤ ${dash.data.low_stock_threshold})`}>
              {dash.data.low_stock.length === 0 ? (
                <Empty>Nothing is running low.</Empty>
              ) : (
                <table>
                  <tbody>
                    {dash.data.low_stock.map((v) => (
                      <tr key={v.variant_id}>
                        <td>
                          <Link to={`/products/${v.product_id}`}>{v.product_title}</Link>
                          <div className="muted">
                            {v.variant_title}
                            {v.sku ? ` · ${v.sku}` : ''}
                          </div>
                        </td>
                        <td className="num">{v.inventory_quantity}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </Card>
          </div>
        </>
      )}
    </>
  );
}
