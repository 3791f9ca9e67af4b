import type { Query } from '../../lib/api.ts';

export const LIMIT = 20;

/** The order list's filters (status, payment, fulfilment, customer, email, date range) as query parameters of the one list call. */
export function orderQuery(params: URLSearchParams): Query {
  const from = params.get('from');
  const to = params.get('to');
  return {
    status: params.get('status') ? [params.get('status')!] : undefined,
    payment_status: params.get('payment_status') ? [params.get('payment_status')!] : undefined,
    fulfillment_status: params.get('fulfillment_status') ? [params.get('fulfillment_status')!] : undefined,
    customer_id: params.get('customer_id') ?? undefined,
    email: params.get('email') ?? undefined,
    q: params.get('q') ?? undefined,
    'created_at[gte]': from ? new Date(`${from}T00:00:00`).toISOString() : undefined,
    'created_at[lte]': to ? new Date(`${to}T23:59:59.999`).toISOString() : undefined,
    order: '-created_at',
    limit: LIMIT,
    offset: Number(params.get('offset') ?? 0),
  };
}
