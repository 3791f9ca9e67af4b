import type { Ctx } from '../../platform/context.ts';
import type { JobContext, JobHandler } from '../../platform/jobs/runner.ts';
import { toMajorText } from '../../platform/money/convert.ts';
import { exponentOf } from '../../platform/money/currencies.ts';
import { listCustomers, type Customer, type CustomerListQuery } from '../customers/service.ts';
import type { AdminOrderQueryInput } from '../orders/desk-schema.ts';
import { listOrders } from '../orders/listing.ts';
import { toCsv } from './product-export.ts';

export const ORDER_EXPORT = 'order_export';
export const CUSTOMER_EXPORT = 'customer_export';
const PAGE = 200;

type Row = Record<string, string | number | boolean | null | undefined>;
type Loose = Record<string, unknown>;

const money = (amount: unknown, currency: string) =>
  typeof amount === 'number' ? toMajorText(amount, exponentOf(currency)) : '';
const text = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

const ORDER_COLUMNS = [
  'Order Id',
  'Order Display Id',
  'Order Created At',
  'Order Status',
  'Order Payment Status',
  'Order Fulfillment Status',
  'Order Email',
  'Order Customer Id',
  'Order Region Id',
  'Order Sales Channel Id',
  'Order Currency Code',
  'Order Item Count',
  'Order Subtotal',
  'Order Shipping Total',
  'Order Discount Total',
  'Order Tax Total',
  'Order Total',
  'Shipping Address Country Code',
  'Shipping Address City',
  'Shipping Address Postal Code',
];

/** One row per order; amounts in whole currency units, as the product file's prices. */
export function orderRow(o: Loose): Row {
  const cur = String(o.currency_code ?? 'usd');
  const addr = (o.shipping_address ?? {}) as Loose;
  const items = (o.items as Loose[] | undefined) ?? [];
  return {
    'Order Id': text(o.id),
    'Order Display Id': text(o.display_id),
    'Order Created At': text(o.created_at),
    'Order Status': text(o.status),
    'Order Payment Status': text(o.payment_status),
    'Order Fulfillment Status': text(o.fulfillment_status),
    'Order Email': text(o.email),
    'Order Customer Id': text(o.customer_id),
    'Order Region Id': text(o.region_id),
    'Order Sales Channel Id': text(o.sales_channel_id),
    'Order Currency Code': cur,
    'Order Item Count': items.reduce((n, i) => n + Number(i.quantity ?? 0), 0),
    'Order Subtotal': money(o.subtotal, cur),
    'Order Shipping Total': money(o.shipping_total, cur),
    'Order Discount Total': money(o.discount_total, cur),
    'Order Tax Total': money(o.tax_total, cur),
    'Order Total': money(o.total, cur),
    'Shipping Address Country Code': text(addr.country_code),
    'Shipping Address City': text(addr.city),
    'Shipping Address Postal Code': text(addr.postal_code),
  };
}

const CUSTOMER_COLUMNS = [
  'Customer Id',
  'Customer Email',
  'Customer First Name',
  'Customer Last Name',
  'Customer Company Name',
  'Customer Phone',
  'Customer Has Account',
  'Customer Created At',
  'Address Country Code',
  'Address City',
  'Address Postal Code',
];

export function customerRow(c: Customer): Row {
  const addr = c.addresses.find((a) => a.is_default_shipping) ?? c.addresses[0];
  return {
    'Customer Id': text(c.id),
    'Customer Email': text(c.email),
    'Customer First Name': text(c.first_name),
    'Customer Last Name': text(c.last_name),
    'Customer Company Name': text(c.company_name),
    'Customer Phone': text(c.phone),
    'Customer Has Account': c.has_account ? 'TRUE' : 'FALSE',
    'Customer Created At': text(c.created_at instanceof Date ? c.created_at.toISOString() : c.created_at),
    'Address Country Code': text(addr?.country_code),
    'Address City': text(addr?.city),
    'Address Postal Code': text(addr?.postal_code),
  };
}

/** Pages through a list route's own service with the list's filters, then writes the CSV. */
export async function exportPages<T>(
  job: JobContext,
  name: string,
  columns: string[],
  page: (ctx: Ctx, offset: number) => Promise<{ items: T[]; count: number }>,
  toRow: (item: T) => Row | Row[],
) {
  const ctx: Ctx = { db: job.db, clock: job.clock, log: job.log };
  const rows: Row[] = [];
  let done = 0;
  for (let offset = 0; ; offset += PAGE) {
    if (job.signal.aborted) throw job.signal.reason;
    const { items, count } = await page(ctx, offset);
    for (const item of items) rows.push(...[toRow(item)].flat());
    done += items.length;
    await job.progress(job.db, done, count);
    if (items.length < PAGE) break;
  }
  const stamp = job.clock.now().toISOString().replace(/[:.]/g, '-');
  await job.saveFile(job.db, 'result', `${name}-${stamp}.csv`, 'text/csv', toCsv(rows, columns));
  return { rows: rows.length };
}

export type { Row };
export { PAGE as EXPORT_PAGE, text as cellText };

export const orderExportJob: JobHandler = {
  type: ORDER_EXPORT,
  run: (job) =>
    exportPages(
      job,
      'orders',
      ORDER_COLUMNS,
      async (ctx, offset) => {
        const filters = (job.job.input.filters ?? {}) as AdminOrderQueryInput;
        const { orders, count } = await listOrders(
          ctx,
          { ...filters, order: filters.order ?? 'created_at' },
          {
            limit: PAGE,
            offset,
          },
        );
        return { items: orders, count };
      },
      orderRow,
    ),
};

export const customerExportJob: JobHandler = {
  type: CUSTOMER_EXPORT,
  run: (job) =>
    exportPages(
      job,
      'customers',
      CUSTOMER_COLUMNS,
      async (ctx, offset) => {
        const filters = (job.job.input.filters ?? {}) as CustomerListQuery;
        const { customers, count } = await listCustomers(ctx, filters, { limit: PAGE, offset });
        return { items: customers, count };
      },
      customerRow,
    ),
};
