import { useSyncExternalStore } from 'react';
import type { Ok } from '../../api/types.ts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useUrlPage } from '../../lib/api-hooks.ts';
import { api } from '../../lib/api.ts';
import {
  cancelDelete,
  deletesVersion,
  isPendingDelete,
  scheduleDelete,
  subscribeDeletes,
} from '../../lib/deferred-delete.ts';
import { useCan, useCanWrite } from '../../lib/session.tsx';
import { Badge, Pager } from '../../components/ui.tsx';
import { ListPage } from '../../components/list-page.tsx';
import { ActionsHead, QueryTable } from '../../components/query-table.tsx';
import { WriteLink } from '../../components/page-links.tsx';
import { useToast } from '../../components/toasts.tsx';
import { PRODUCT_STATUSES, type Product } from './types.ts';
import { PAGE_SIZE, pageRequest, toPage } from './paging.ts';
import { ExportDialogButton, ImportDialogButton } from '../jobs/import-dialog.tsx';
import { UrlSelectField, UrlTextField, choicesOf } from '../../components/form-pieces.tsx';

const TOTAL_KEY = ['products', 'total'];

/** Search is sent to the server (`q`) once typing pauses; filters live in the URL so a page can be shared. */
export function ProductList() {
  const { params, q: debouncedQ, offset, page } = useUrlPage();
  const status = params.get('status') ?? '';
  const canWrite = useCanWrite();
  const canImport = useCan('products:write');
  const client = useQueryClient();
  const notify = useToast();
  useSyncExternalStore(subscribeDeletes, deletesVersion);

  const view = { q: debouncedQ, status, offset };
  const list = useQuery({
    queryKey: ['products', view],
    queryFn: async ({ signal }) => {
      const { query, counted } = pageRequest(view);
      const body = await api<Ok<'/admin/products'>>('/admin/products', { query, signal });
      const page = toPage(body, view, counted);
      if (page.count !== null) client.setQueryData(TOTAL_KEY, page.count);
      return page;
    },
    placeholderData: keepPreviousData,
  });
  // The catalog's size, from the unfiltered first page (never fetched on its own).
  const total = useQuery<number>({ queryKey: TOTAL_KEY, enabled: false }).data;
  const filtered = !!(debouncedQ || status);

  const remove = (p: Product) => {
    scheduleDelete(p.id, async (keepalive) => {
      await api(`/admin/products/${p.id}`, { method: 'DELETE', keepalive }).then(
        () => client.setQueryData<number>(TOTAL_KEY, (n) => (n === undefined ? n : Math.max(0, n - 1))),
        (err) => notify(`Could not delete ${p.title}: ${(err as Error).message}`, 'error'),
      );
      await client.invalidateQueries({ queryKey: ['products'] });
    });
    notify(`Deleted “${p.title}”.`, 'info', { label: 'Undo', run: () => cancelDelete(p.id) }, 6000);
  };

  return (
    <ListPage
      title="Products"
      actions={
        <>
          {canImport && <ImportDialogButton />}
          <ExportDialogButton resource="products" query={{ q: debouncedQ, status: status ? [status] : undefined }} />
          <WriteLink to="/products/new">Add product</WriteLink>
        </>
      }
      filters={
        <>
          <UrlTextField label="Search" name="q" type="search" placeholder="Title, handle or description" />
          <UrlSelectField label="Status" name="status" none="All" choices={choicesOf(PRODUCT_STATUSES)} />
          {list.isFetching && <span className="spinner" role="img" aria-label="Searching" />}
        </>
      }
    >
      <QueryTable
        list={list}
        rows={(d) => d.rows.filter((p) => !isPendingDelete(p.id))}
        empty={params.get('q') || status ? 'No product matches.' : 'No products yet.'}
        wrap
        head={
          <>
            <th>Product</th>
            <th>Status</th>
            <th className="num">Variants</th>
            <th className="num">Stock</th>
            <th>Sales channels</th>
            {canWrite && <ActionsHead />}
          </>
        }
        row={(p) => (
          <tr key={p.id}>
            <td>
              <Link to={`/products/${p.id}`}>{p.title}</Link>
              <div className="muted">{p.handle}</div>
            </td>
            <td>
              <Badge value={p.status} />
            </td>
            <td className="num">{p.variants.length}</td>
            <td className="num">
              {p.variants.some((v) => v.manage_inventory)
                ? p.variants.reduce((n, v) => n + (v.manage_inventory ? v.inventory_quantity : 0), 0)
                : '∞'}
            </td>
            <td>{p.sales_channels.map((c) => c.name).join(', ') || <span className="muted">none</span>}</td>
            {canWrite && (
              <td>
                <button
                  type="button"
                  className="btn btn-small btn-danger"
                  onClick={() => remove(p)}
                  aria-label={`Delete ${p.title}`}
                >
                  Delete
                </button>
              </td>
            )}
          </tr>
        )}
      />
      {list.data && (
        <Pager
          offset={offset}
          limit={PAGE_SIZE}
          count={filtered ? undefined : total}
          hasMore={list.data.hasMore}
          shown={list.data.rows.length}
          onChange={page}
        />
      )}
    </ListPage>
  );
}
