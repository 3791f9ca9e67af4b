import type { Ok } from '../../api/types.ts';
import { api, type Query } from '../../lib/api.ts';

export type Job = Ok<'/admin/jobs/{id}'>['job'];

/** The preview of an upload (`POST /admin/products/import`, a 202). */
export interface ImportPreview {
  transaction_id: string;
  summary: {
    toCreate: number;
    toUpdate: number;
    rows: number;
    rows_with_errors: number;
    errors: { row: number; column: string; reason: string }[];
    warnings: { row: number; column: string; reason: string }[];
    ignored_columns: string[];
    to_make: { tags: number; types: number; collections: number };
  };
}

export const JOB_TYPES: Record<string, string> = {
  product_import: 'Product import',
  product_export: 'Product export',
  order_export: 'Order export',
  customer_export: 'Customer export',
  inventory_item_export: 'Inventory export',
};

/** Ended: nothing more will change (a canceled job included, so nothing polls it). */
export const isFinished = (job: Job | undefined) =>
  job?.status === 'succeeded' || job?.status === 'failed' || job?.status === 'canceled';

export function cancelJob(id: string): Promise<{ job: Job }> {
  return api(`/admin/jobs/${id}/cancel`, { method: 'POST' });
}

export function uploadProductCsv(file: File): Promise<ImportPreview> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api<ImportPreview>('/admin/products/import', { method: 'POST', form });
}

export function confirmImport(id: string): Promise<{ transaction_id: string }> {
  return api(`/admin/products/import/${id}/confirm`, { method: 'POST' });
}

/** `products`, `orders` or `customers`, with the list's filters (page fields are ignored by the server). */
export function startExport(
  resource: 'products' | 'orders' | 'customers',
  query: Query,
): Promise<{ transaction_id: string }> {
  return api(`/admin/${resource}/export`, { method: 'POST', body: {}, query });
}
