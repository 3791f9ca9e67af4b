import { useRef, useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { date, dateTime } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import {
  Badge,
  Card,
  ConfirmButton,
  ErrorNote,
  Field,
  Loading,
  PageHeader,
  Pager,
  useDebounced,
} from '../../components/ui.tsx';
import { QueryTable } from '../../components/query-table.tsx';
import { BackLink } from '../../components/page-links.tsx';
import { useToast } from '../../components/toasts.tsx';
import { failedChecksOf, VersionReview, type ReviewedVersion } from './review.tsx';
import { useApi } from '../../lib/api-hooks.ts';

interface Version extends ReviewedVersion {
  sha256: string;
  size: number;
  changelog_url: string | null;
  published_at: string;
}
interface Item {
  id: string;
  marketplace_id: string;
  name: string;
  type: string;
  description: string | null;
  price_eur: number;
  changelog_url: string | null;
  published: boolean;
  version: string | null;
  updated_at: string;
  versions: Version[];
}

/** What an upload became: listed, or waiting in review (the operator's upload that failed a check). */
function uploaded(item: Item): [string, 'success' | 'error'] {
  const v = item.versions.reduce((a, b) => (b.published_at > a.published_at ? b : a));
  const name = `${item.marketplace_id}@${v.version}`;
  if (v.status === 'approved') return [`Published ${name}`, 'success'];
  const failed = failedChecksOf(v).map((c) => c.name);
  return failed.length
    ? [`${name} failed checks (${failed.join(', ')}): in review, not listed until you approve it`, 'error']
    : [`${name} is ${v.status.replace('_', ' ')}`, 'error'];
}

const LIMIT = 20;

function Upload() {
  const client = useQueryClient();
  const notify = useToast();
  const form = useRef<HTMLFormElement>(null);
  const upload = useMutation({
    mutationFn: (form: FormData) => api<{ item: Item }>('/admin/marketplace/items', { method: 'POST', form }),
    onSuccess: async (d) => {
      notify(...uploaded(d.item));
      form.current?.reset();
      await client.invalidateQueries({ queryKey: ['vendor-items'] });
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    for (const k of ['price_eur', 'changelog_url', 'description']) if (!data.get(k)) data.delete(k);
    upload.mutate(data);
  };
  return (
    <Card title="Publish a package">
      <form ref={form} className="row" onSubmit={submit} aria-label="Publish a package">
        <Field
          label="Package (.tgz)"
          name="file"
          type="file"
          accept=".tgz,application/gzip"
          required
          error={upload.error}
        />
        <Field label="Price (EUR, empty = free)" name="price_eur" inputMode="decimal" error={upload.error} />
        <Field label="Billing" name="billing" as="select" defaultValue="one_time" error={upload.error}>
          <option value="one_time">Once</option>
          <option value="monthly">Monthly (subscription)</option>
          <option value="yearly">Yearly (subscription)</option>
        </Field>
        <Field label="Changelog URL" name="changelog_url" type="url" error={upload.error} />
        <Field label="Description" name="description" error={upload.error} />
        <button type="submit" className="btn btn-primary" style={{ marginBottom: 12 }} disabled={upload.isPending}>
          {upload.isPending ? 'Publishing…' : 'Publish'}
        </button>
      </form>
      <ErrorNote error={upload.error} skipField />
      <p className="hint">
        The first version creates the item; later versions are added to it. The marketplace signs each one. A version
        that fails an automatic check (the test install among them) waits in review until you approve it with a reason.
      </p>
    </Card>
  );
}

export function ItemList() {
  const canWrite = useCanWrite();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const offset = Number(params.get('offset') ?? 0);
  const debounced = useDebounced(q);
  const list = useApi<{ items: Item[]; count: number }>(
    ['vendor-items', debounced, offset],
    '/admin/marketplace/items',
    { q: debounced, limit: LIMIT, offset },
    { placeholderData: keepPreviousData },
  );
  return (
    <>
      <PageHeader title="Catalog items" />
      {canWrite && <Upload />}
      <Card>
        <search className="filters">
          <Field
            label="Search"
            name="q"
            type="search"
            value={q}
            onChange={(e) => setParams(e.target.value ? { q: e.target.value } : {}, { replace: true })}
          />
        </search>
        <QueryTable
          list={list}
          rows={(d) => d.items}
          empty="Nothing published yet."
          head={
            <>
              <th>Item</th>
              <th>Type</th>
              <th>Latest</th>
              <th>Price</th>
              <th>State</th>
              <th>Updated</th>
            </>
          }
          row={(i) => (
            <tr key={i.id}>
              <td>
                <Link to={`/vendor/items/${i.id}`}>{i.name}</Link>
                <div className="muted">{i.marketplace_id}</div>
              </td>
              <td>{i.type}</td>
              <td>{i.version ?? '—'}</td>
              <td>{i.price_eur > 0 ? `€${i.price_eur.toFixed(2)}` : 'Free'}</td>
              <td>{i.published ? <Badge value="published" /> : <Badge value="disabled">unpublished</Badge>}</td>
              <td>{date(i.updated_at)}</td>
            </tr>
          )}
        />
        {list.data && (
          <Pager
            offset={offset}
            limit={LIMIT}
            count={list.data.count}
            shown={list.data.items.length}
            onChange={(o) => setParams({ ...(q ? { q } : {}), offset: String(o) }, { replace: true })}
          />
        )}
      </Card>
    </>
  );
}

export function ItemDetail() {
  const { id } = useParams();
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const notify = useToast();
  const item = useApi<{ item: Item }>(['vendor-item', id], `/admin/marketplace/items/${id}`);
  const [edit, setEdit] = useState<Record<string, string> | null>(null);
  const done = async (d: { item: Item }, message: string) => {
    client.setQueryData(['vendor-item', id], d);
    await client.invalidateQueries({ queryKey: ['vendor-items'] });
    notify(message, 'success');
  };
  const save = useMutation({
    mutationFn: (v: Record<string, string>) =>
      api<{ item: Item }>(`/admin/marketplace/items/${id}`, {
        method: 'PATCH',
        body: {
          price_eur: Number(v.price_eur || 0),
          changelog_url: v.changelog_url || null,
          description: v.description || null,
        },
      }),
    onSuccess: (d) => done(d, 'Item saved'),
  });
  const unpublish = useMutation({
    mutationFn: () => api<{ item: Item }>(`/admin/marketplace/items/${id}/unpublish`, { method: 'POST' }),
    onSuccess: (d) => done(d, 'Unpublished: out of the feed, downloads refused'),
  });
  if (item.isPending) return <Loading />;
  if (item.isError) return <ErrorNote error={item.error} />;
  const i = item.data.item;
  const values = edit ?? {
    price_eur: String(i.price_eur || ''),
    changelog_url: i.changelog_url ?? '',
    description: i.description ?? '',
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(values);
  };
  return (
    <>
      <PageHeader
        back={<BackLink to="/vendor/items">Catalog items</BackLink>}
        title={
          <>
            {i.name} {i.published ? <Badge value="published" /> : <Badge value="disabled">unpublished</Badge>}
          </>
        }
        actions={
          canWrite &&
          i.published && (
            <ConfirmButton
              label="Unpublish"
              danger
              title={`Unpublish ${i.marketplace_id}?`}
              body="It leaves the feed and its downloads are refused. Publishing a new version brings it back."
              onConfirm={() => unpublish.mutate()}
            />
          )
        }
      />
      <ErrorNote error={unpublish.error} />
      <div className="cols">
        <Card title="Versions">
          <table>
            <thead>
              <tr>
                <th>Version</th>
                <th>Published</th>
                <th className="num">Size</th>
                <th>sha256</th>
                <th>Changelog</th>
                <th>Review</th>
              </tr>
            </thead>
            <tbody>
              {i.versions.map((v) => (
                <tr key={v.id}>
                  <td>{v.version}</td>
                  <td>{dateTime(v.published_at)}</td>
                  <td className="num">{(v.size / 1024).toFixed(1)} KiB</td>
                  <td>
                    <code>{v.sha256.slice(0, 16)}…</code>
                  </td>
                  <td>
                    {v.changelog_url ? (
                      <a href={v.changelog_url} target="_blank" rel="noreferrer noopener">
                        changelog
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>
                    <VersionReview<{ item: Item }>
                      itemId={i.id}
                      v={v}
                      canWrite={canWrite}
                      onDecided={(d, message) => done(d, message)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        <Card title="Listing">
          <form onSubmit={submit} aria-label="Listing">
            <fieldset disabled={!canWrite} style={{ border: 0, padding: 0, margin: 0 }}>
              <Field
                label="Price (EUR, 0 = free)"
                name="price_eur"
                inputMode="decimal"
                value={values.price_eur}
                onChange={(e) => setEdit({ ...values, price_eur: e.target.value })}
                error={save.error}
              />
              <Field
                label="Changelog URL"
                name="changelog_url"
                type="url"
                value={values.changelog_url}
                onChange={(e) => setEdit({ ...values, changelog_url: e.target.value })}
                error={save.error}
              />
              <Field
                label="Description"
                name="description"
                as="textarea"
                value={values.description}
                onChange={(e) => setEdit({ ...values, description: e.target.value })}
                error={save.error}
              />
              <ErrorNote error={save.error} skipField />
              {canWrite && (
                <button type="submit" className="btn btn-primary" disabled={save.isPending || !edit}>
                  Save
                </button>
              )}
            </fieldset>
          </form>
        </Card>
      </div>
    </>
  );
}
