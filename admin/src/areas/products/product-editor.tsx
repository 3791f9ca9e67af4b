import { useEffect, useState } from 'react';
import type { Ok } from '../../api/types.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Card, ErrorNote, Field, Loading, PageHeader } from '../../components/ui.tsx';
import { SubmitButton, SelectField, SubmitForm } from '../../components/form-pieces.tsx';
import { BackLink } from '../../components/page-links.tsx';
import { useToast } from '../../components/toasts.tsx';
import { ExtensionSlot } from '../../extensions/slot.tsx';
import { PRODUCT_STATUSES, type Product } from './types.ts';
import { VariantsEditor } from './variants-editor.tsx';
import { ImagesCard, OrganisationCard } from './catalog-sections.tsx';
import { newDraft, splitValues, toBody, toDraft, type Draft } from './draft.ts';
import { Activity } from '../../components/activity.tsx';
import { useApi } from '../../lib/api-hooks.ts';

/** Create or edit a product with its options, variants, prices per currency, stock and sales channels. */
export function ProductEditor() {
  const { id } = useParams();
  const creating = !id;
  const canWrite = useCanWrite();
  const navigate = useNavigate();
  const client = useQueryClient();
  const notify = useToast();
  // Three independent reads in parallel (no waterfall): the product, the channels, the regions' currencies.
  const product = useApi<{ product: Product }>(['product', id], `/admin/products/${id}`, undefined, {
    enabled: !creating,
  });
  const channels = useApi<Ok<'/admin/sales-channels'>>(['sales-channels', 'all'], '/admin/sales-channels', {
    limit: 100,
  });
  const regions = useApi<Ok<'/admin/regions'>>(['regions', 'all'], '/admin/regions', { limit: 100 });
  const [draft, setDraft] = useState<Draft | null>(null);

  useEffect(() => {
    if (creating && !draft && channels.data) {
      setDraft(newDraft(channels.data.sales_channels.slice(0, 1).map((c) => c.id)));
    }
    if (!creating && product.data && !draft) setDraft(toDraft(product.data.product));
  }, [creating, draft, channels.data, product.data]);

  const currencies = [
    ...new Set([
      ...(regions.data?.regions.map((r) => r.currency_code) ?? []),
      ...(draft?.variants.flatMap((v) => Object.keys(v.prices)) ?? []),
    ]),
  ];
  if (!currencies.length) currencies.push('eur');

  const save = useMutation({
    mutationFn: (d: Draft) =>
      api<{ product: Product }>(creating ? '/admin/products' : `/admin/products/${id}`, {
        method: 'POST',
        body: toBody(d, currencies),
      }),
    onSuccess: async ({ product: saved }) => {
      client.setQueryData(['product', saved.id], { product: saved });
      await client.invalidateQueries({ queryKey: ['products'] });
      await client.invalidateQueries({ queryKey: ['audit-log', saved.id] });
      notify(creating ? 'Product created' : 'Product saved', 'success');
      if (creating) navigate(`/products/${saved.id}`, { replace: true });
      else setDraft(toDraft(saved));
    },
  });

  if ((!creating && product.isPending) || channels.isPending || !draft)
    return product.isError ? <ErrorNote error={product.error} /> : <Loading />;
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  return (
    <SubmitForm label={creating ? 'New product' : 'Edit product'} onSubmit={() => save.mutate(draft)}>
      <PageHeader
        back={<BackLink to="/products">Products</BackLink>}
        title={creating ? 'New product' : draft.title || 'Product'}
        actions={
          canWrite && (
            <SubmitButton pending={save.isPending}>
              {save.isPending ? 'Saving…' : creating ? 'Create product' : 'Save'}
            </SubmitButton>
          )
        }
      />
      <ErrorNote error={save.error} skipField />
      <fieldset disabled={!canWrite} style={{ border: 0, padding: 0, margin: 0 }}>
        <div className="cols">
          <div>
            <Card title="Details">
              <Field
                label="Title"
                name="title"
                required
                value={draft.title}
                onChange={(e) => set({ title: e.target.value })}
                error={save.error}
              />
              <Field
                label="Handle"
                name="handle"
                value={draft.handle}
                placeholder="made from the title when empty"
                onChange={(e) => set({ handle: e.target.value })}
                error={save.error}
              />
              <Field
                label="Description"
                name="description"
                as="textarea"
                value={draft.description}
                onChange={(e) => set({ description: e.target.value })}
                error={save.error}
              />
            </Card>
            <ImagesCard images={draft.images} onChange={(images) => set({ images })} canWrite={canWrite} />
            <Card
              title="Options"
              actions={
                canWrite && (
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => set({ options: [...draft.options, { title: '', values: '' }] })}
                  >
                    Add option
                  </button>
                )
              }
            >
              {draft.options.length === 0 && (
                <p className="muted">
                  No options: variants are told apart by their title. Add one (Size, Color) to give each variant a
                  value.
                </p>
              )}
              {draft.options.map((o, i) => (
                <div
                  className="row"
                  // biome-ignore lint/suspicious/noArrayIndexKey: a new option has no id, and its fields are controlled by position
                  key={i}
                >
                  <Field
                    label="Option name"
                    name={`options.${i}.title`}
                    value={o.title}
                    onChange={(e) =>
                      set({ options: draft.options.map((x, j) => (j === i ? { ...x, title: e.target.value } : x)) })
                    }
                    error={save.error}
                  />
                  <Field
                    label="Values (comma-separated)"
                    name={`options.${i}.values`}
                    value={o.values}
                    onChange={(e) =>
                      set({ options: draft.options.map((x, j) => (j === i ? { ...x, values: e.target.value } : x)) })
                    }
                    error={save.error}
                  />
                  {canWrite && (
                    <button
                      type="button"
                      className="btn btn-small btn-danger"
                      style={{ marginBottom: 12 }}
                      onClick={() => set({ options: draft.options.filter((_, j) => j !== i) })}
                    >
                      Remove
                    </button>
                  )}
                </div>
              ))}
            </Card>
            <VariantsEditor
              variants={draft.variants}
              options={draft.options
                .filter((o) => o.title.trim())
                .map((o) => ({ title: o.title.trim(), values: splitValues(o.values) }))}
              currencies={currencies}
              onChange={(variants) => set({ variants })}
              error={save.error}
              canWrite={canWrite}
            />
          </div>
          <div>
            <Card title="Status">
              <SelectField
                label="Status"
                name="status"
                value={draft.status}
                onChange={(v) => set({ status: v as Product['status'] })}
                error={save.error}
                choices={PRODUCT_STATUSES.map((s) => ({ value: s, label: s }))}
              />
            </Card>
            <Card title="Sales channels">
              {channels.data?.sales_channels.map((c) => (
                <Field
                  key={c.id}
                  label={c.name}
                  name={`channel-${c.id}`}
                  type="checkbox"
                  checked={draft.channels.includes(c.id)}
                  onChange={(e) =>
                    set({
                      channels: e.target.checked ? [...draft.channels, c.id] : draft.channels.filter((x) => x !== c.id),
                    })
                  }
                />
              ))}
              <p className="hint">A product is sold in the store only through its channels' publishable keys.</p>
            </Card>
            <OrganisationCard
              collectionId={draft.collectionId}
              categoryIds={draft.categoryIds}
              onChange={(patch) => set(patch)}
              error={save.error}
            />
          </div>
        </div>
      </fieldset>
      {!creating && <ExtensionSlot name="product.details" />}
      {!creating && id && <Activity resourceId={id} />}
    </SubmitForm>
  );
}
