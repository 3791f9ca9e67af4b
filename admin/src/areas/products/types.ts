export interface Price {
  currency_code: string;
  amount: number;
}

export interface Variant {
  id: string;
  title: string;
  sku: string | null;
  manage_inventory: boolean;
  allow_backorder: boolean;
  inventory_quantity: number;
  options: { value: string; option: { title: string } }[];
  prices: Price[];
}

export interface Product {
  id: string;
  title: string;
  handle: string;
  description: string | null;
  status: 'draft' | 'proposed' | 'published' | 'rejected';
  thumbnail: string | null;
  options: { id: string; title: string; values: { value: string }[] }[];
  variants: Variant[];
  sales_channels: { id: string; name: string }[];
  images?: { id: string; url: string }[];
  collection_id?: string | null;
  collection?: { id: string; title: string } | null;
  categories?: { id: string; name: string }[];
  created_at: string;
  updated_at: string;
}

export const PRODUCT_STATUSES = ['draft', 'proposed', 'published', 'rejected'] as const;
