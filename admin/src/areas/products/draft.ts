/** The editor's form state and its mapping from a product read and to a create/update body. */
import { fromMinor, toMinor } from '../../lib/format.ts';
import type { Product } from './types.ts';
import { emptyVariant, type VariantDraft } from './variants-editor.tsx';
import type { ImageDraft } from './catalog-sections.tsx';

export interface OptionDraft {
  title: string;
  values: string;
}

export interface Draft {
  title: string;
  handle: string;
  description: string;
  status: Product['status'];
  channels: string[];
  options: OptionDraft[];
  variants: VariantDraft[];
  images: ImageDraft[];
  /** '' for none. */
  collectionId: string;
  categoryIds: string[];
}

export const splitValues = (s: string) => [
  ...new Set(
    s
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ),
];

export function toDraft(p: Product): Draft {
  return {
    title: p.title,
    handle: p.handle,
    description: p.description ?? '',
    status: p.status,
    channels: p.sales_channels.map((c) => c.id),
    options: p.options.map((o) => ({ title: o.title, values: o.values.map((v) => v.value).join(', ') })),
    images: (p.images ?? []).map((i) => ({ id: i.id, url: i.url })),
    collectionId: p.collection?.id ?? p.collection_id ?? '',
    categoryIds: (p.categories ?? []).map((c) => c.id),
    variants: p.variants.map((v) => ({
      id: v.id,
      title: v.title,
      sku: v.sku ?? '',
      manage_inventory: v.manage_inventory,
      inventory_quantity: String(v.inventory_quantity),
      options: Object.fromEntries(v.options.map((o) => [o.option.title, o.value])),
      prices: Object.fromEntries(v.prices.map((pr) => [pr.currency_code, fromMinor(pr.amount, pr.currency_code)])),
    })),
  };
}

/** The request body; prices typed as decimals become minor units per currency. */
export function toBody(d: Draft, currencies: string[]) {
  const options = d.options
    .filter((o) => o.title.trim())
    .map((o) => ({ title: o.title.trim(), values: splitValues(o.values) }));
  return {
    title: d.title,
    ...(d.handle ? { handle: d.handle } : {}),
    description: d.description || null,
    status: d.status,
    sales_channels: d.channels.map((id) => ({ id })),
    images: d.images.map((i) => (i.id ? { id: i.id, url: i.url } : { url: i.url })),
    // The first gallery image is the thumbnail the store lists show.
    thumbnail: d.images[0]?.url ?? null,
    collection_id: d.collectionId || null,
    categories: d.categoryIds.map((id) => ({ id })),
    options,
    variants: d.variants.map((v) => ({
      ...(v.id ? { id: v.id } : {}),
      title: v.title,
      sku: v.sku || null,
      manage_inventory: v.manage_inventory,
      inventory_quantity: Number(v.inventory_quantity || 0),
      options: Object.fromEntries(options.map((o) => [o.title, v.options[o.title] ?? ''])),
      prices: currencies.flatMap((c) => {
        const amount = toMinor(v.prices[c] ?? '', c);
        return amount === null ? [] : [{ currency_code: c, amount }];
      }),
    })),
  };
}

/** A new product: published, in the given channels, with one default variant. */
export function newDraft(channels: string[]): Draft {
  return {
    title: '',
    handle: '',
    description: '',
    status: 'published',
    channels,
    options: [],
    variants: [emptyVariant('Default')],
    images: [],
    collectionId: '',
    categoryIds: [],
  };
}
