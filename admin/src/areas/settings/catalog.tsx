import { Badge } from '../../components/ui.tsx';
import { ResourceTable } from './resource-table.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

type Collection = Item<Ok<'/admin/collections'>['collections']>;

type Category = Item<Ok<'/admin/product-categories'>['product_categories']>;

const CATEGORIES = '/admin/product-categories';

export function CollectionsPage() {
  return (
    <ResourceTable<Collection>
      title="collection"
      path="/admin/collections"
      plural="collections"
      fields={[
        { name: 'title', label: 'Title', required: true },
        { name: 'handle', label: 'Handle', hint: 'made from the title when empty' },
      ]}
      toBody={(v) => ({ title: v.title, ...(v.handle ? { handle: v.handle } : {}) })}
      columns={[
        ['Title', (c) => c.title],
        ['Handle', (c) => c.handle],
      ]}
      describe={(c) => c.title}
    />
  );
}

export function CategoriesPage() {
  // The same query the table below reads (same key), so the parent choices follow what was created.
  const list = useApi<{ product_categories: Category[] }>([CATEGORIES], CATEGORIES, { limit: 200 });
  const all = list.data?.product_categories ?? [];
  const nameOf = (id: string | null) => all.find((c) => c.id === id)?.name ?? '—';
  return (
    <ResourceTable<Category>
      title="category"
      path={CATEGORIES}
      plural="product_categories"
      fields={[
        { name: 'name', label: 'Name', required: true },
        {
          name: 'parent_category_id',
          label: 'Parent',
          options: [{ value: '', label: 'None (top level)' }, ...all.map((c) => ({ value: c.id, label: c.name }))],
        },
        {
          name: 'visibility',
          label: 'Visibility',
          options: [
            { value: 'active', label: 'Active, public' },
            { value: 'inactive', label: 'Inactive' },
            { value: 'internal', label: 'Active, internal' },
          ],
        },
      ]}
      toBody={(v) => ({
        name: v.name,
        parent_category_id: v.parent_category_id || null,
        is_active: v.visibility !== 'inactive',
        is_internal: v.visibility === 'internal',
      })}
      columns={[
        ['Name', (c) => c.name],
        ['Parent', (c) => nameOf(c.parent_category_id)],
        ['State', (c) => <Badge value={c.is_active ? (c.is_internal ? 'internal' : 'active') : 'inactive'} />],
      ]}
      describe={(c) => c.name}
    />
  );
}
