import type { ChangeEvent } from 'react';
import type { Ok } from '../../api/types.ts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { Card, ErrorNote, Field } from '../../components/ui.tsx';
import { SelectField } from '../../components/form-pieces.tsx';
import { treeOrder, type Category } from './category-tree.ts';
import { useApi } from '../../lib/api-hooks.ts';

export interface ImageDraft {
  /** Present for an image the product already has, so the update keeps it (and its variant links). */
  id?: string;
  url: string;
}

/** The gallery: upload through /admin/uploads, in order; the first image is the product's thumbnail. */
export function ImagesCard(props: {
  images: ImageDraft[];
  onChange: (images: ImageDraft[]) => void;
  canWrite: boolean;
}) {
  const { images, onChange, canWrite } = props;
  const upload = useMutation({
    mutationFn: (files: File[]) => {
      const form = new FormData();
      for (const f of files) form.append('files', f);
      return api<Ok<'/admin/uploads', 'post'>>('/admin/uploads', { method: 'POST', form });
    },
    onSuccess: ({ files }) => {
      onChange([...images, ...files.map((f) => ({ url: f.url }))]);
    },
  });
  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])];
    // Cleared at once so choosing the same file again still fires a change.
    e.target.value = '';
    if (files.length) upload.mutate(files);
  };
  return (
    <Card title="Images">
      {images.length === 0 && <p className="muted">No images yet.</p>}
      <ol className="thumbs" aria-label="Images">
        {images.map((img, i) => (
          <li key={img.id ?? img.url}>
            <img src={img.url} alt={i === 0 ? 'Image 1 (thumbnail)' : `Image ${i + 1}`} />
            {i === 0 && <span className="badge">Thumbnail</span>}
            {canWrite && (
              <button
                type="button"
                className="btn btn-small btn-danger"
                aria-label={`Remove image ${i + 1}`}
                onClick={() => onChange(images.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ol>
      {canWrite && (
        <Field
          label={upload.isPending ? 'Uploading…' : 'Add images'}
          name="images-upload"
          type="file"
          accept="image/*"
          multiple
          onChange={pick}
          disabled={upload.isPending}
          hint="The first image is the product's thumbnail. Images are kept when you save."
        />
      )}
      <ErrorNote error={upload.error} />
    </Card>
  );
}

/** Collection (one) and categories (many, indented as the tree). */
export function OrganisationCard(props: {
  collectionId: string;
  categoryIds: string[];
  onChange: (patch: { collectionId?: string; categoryIds?: string[] }) => void;
  error: unknown;
}) {
  const { collectionId, categoryIds, onChange, error } = props;
  const collections = useApi<Ok<'/admin/collections'>>(['collections', 'all'], '/admin/collections', { limit: 100 });
  const categories = useApi<{ product_categories: Category[] }>(
    ['product-categories', 'all'],
    '/admin/product-categories',
    { limit: 100 },
  );
  return (
    <Card title="Organisation">
      <ErrorNote error={collections.error ?? categories.error} />
      <SelectField
        label="Collection"
        name="collection_id"
        value={collectionId}
        onChange={(v) => onChange({ collectionId: v })}
        error={error}
        none="No collection"
        choices={collections.data?.collections.map((c) => ({ value: c.id, label: c.title })) ?? []}
      />
      <fieldset className="checklist">
        <legend>Categories</legend>
        {categories.data && categories.data.product_categories.length === 0 && (
          <p className="muted">No categories yet.</p>
        )}
        {treeOrder(categories.data?.product_categories ?? []).map(({ category: c, depth }) => (
          <div key={c.id} style={{ paddingLeft: depth * 16 }}>
            <Field
              label={c.name + (c.is_active ? '' : ' (inactive)') + (c.is_internal ? ' (internal)' : '')}
              name={`category-${c.id}`}
              type="checkbox"
              checked={categoryIds.includes(c.id)}
              onChange={(e) =>
                onChange({
                  categoryIds: e.target.checked ? [...categoryIds, c.id] : categoryIds.filter((x) => x !== c.id),
                })
              }
            />
          </div>
        ))}
      </fieldset>
    </Card>
  );
}
