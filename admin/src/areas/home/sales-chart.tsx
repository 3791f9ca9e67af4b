import { money } from '../../lib/format.ts';
import { lastDays } from './days.ts';
import type { Item, Ok } from '../../api/types.ts';

export type DaySales = Item<Ok<'/admin/dashboard'>['sales']>;

/** Revenue bars per day in the shop's main currency (the one with most orders), with a table for screen readers. */
export function SalesChart({ sales, days, today }: { sales: DaySales[]; days: number; today: string }) {
  const byCurrency = new Map<string, number>();
  for (const s of sales) byCurrency.set(s.currency_code, (byCurrency.get(s.currency_code) ?? 0) + s.orders);
  const currency = [...byCurrency.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'eur';
  const series = lastDays(today, days).map(
    (day) =>
      sales.find((s) => s.day === day && s.currency_code === currency) ?? {
        day,
        currency_code: currency,
        orders: 0,
        revenue: 0,
      },
  );
  const max = Math.max(1, ...series.map((s) => s.revenue));
  const total = series.reduce((n, s) => n + s.revenue, 0);
  const w = 600;
  const h = 150;
  const bar = w / days;
  return (
    <figure style={{ margin: 0 }}>
      <svg
        className="chart"
        viewBox={`0 0 ${w} ${h + 16}`}
        role="img"
        aria-label={`Revenue per day in ${currency.toUpperCase()}, ${money(total, currency)} over ${days} days`}
      >
        {series.map((s, i) => {
          const bh = Math.round((s.revenue / max) * h);
          return (
            <rect
              key={s.day}
              x={i * bar + 2}
              y={h - bh}
              width={bar - 4}
              height={Math.max(bh, s.revenue ? 2 : 0)}
              rx="2"
            >
              <title>{`${s.day}: ${money(s.revenue, currency)}, ${s.orders} orders`}</title>
            </rect>
          );
        })}
        <line x1="0" x2={w} y1={h} y2={h} stroke="#d5d8de" />
        <text x="0" y={h + 13}>
          {series[0].day}
        </text>
        <text x={w} y={h + 13} textAnchor="end">
          today
        </text>
      </svg>
      <figcaption className="muted">
        {money(total, currency)} in {days} days ·{' '}
        {plural(
          series.reduce((n, s) => n + s.orders, 0),
          'order',
        )}
      </figcaption>
    </figure>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
