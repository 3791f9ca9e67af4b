import type { Garment } from './seed-images.ts';

/**
 * What `emporium seed` creates: the catalog of Medusa's starter seed, re-authored (a region
 * Europe in EUR, standard and express shipping, apparel with sizes and colours). Amounts are
 * minor units (the database's), whatever AMOUNT_UNITS says.
 */

export const REGION = { name: 'Europe', currency_code: 'eur', countries: ['gb', 'de', 'dk', 'se', 'fr', 'es', 'it'] };

/** Europe first (the storefront's default country `de` is in it), then the United States. */
export const REGIONS = [REGION, { name: 'United States', currency_code: 'usd', countries: ['us'] }];

/** Medusa's starter home page lists collections with their products; each product sits in one. */
export const COLLECTIONS = [
  { title: 'Latest Drops', handle: 'latest-drops' },
  { title: 'Weekly Picks', handle: 'weekly-picks' },
];

export const SHIPPING = [
  { name: 'Standard Shipping', amount: 1000 },
  { name: 'Express Shipping', amount: 1500 },
];

/** Active, public categories (handle: the lower-cased name); each product sits in one. */
export const CATEGORIES = ['Shirts', 'Sweatshirts', 'Pants', 'Merch'];

/** A picture drawn by seed-images.ts and stored under the shop's uploads (no internet needed). */
export interface SeedImage {
  file: string;
  kind: Garment;
  colour: [number, number, number];
  back?: boolean;
}

export interface SeedProduct {
  title: string;
  handle: string;
  description: string;
  category: (typeof CATEGORIES)[number];
  collection: string;
  /** Ordered gallery; the first is also the thumbnail. */
  images: SeedImage[];
  options: { title: string; values: string[] }[];
  /** Price per variant in minor units, per currency. */
  prices: { eur: number; usd: number };
}

const SIZES = ['S', 'M', 'L', 'XL'];

export const PRODUCTS: SeedProduct[] = [
  {
    title: 'Medusa T-Shirt',
    handle: 't-shirt',
    description: 'A soft cotton tee for everyday wear, cut for a relaxed fit.',
    category: 'Shirts',
    collection: 'latest-drops',
    images: [
      { file: 'seed-tee-black-front.png', kind: 'tee', colour: [31, 41, 55] },
      { file: 'seed-tee-black-back.png', kind: 'tee', colour: [31, 41, 55], back: true },
      { file: 'seed-tee-white-front.png', kind: 'tee', colour: [200, 203, 208] },
      { file: 'seed-tee-white-back.png', kind: 'tee', colour: [200, 203, 208], back: true },
    ],
    options: [
      { title: 'Size', values: SIZES },
      { title: 'Color', values: ['Black', 'White'] },
    ],
    prices: { eur: 1000, usd: 1500 },
  },
  {
    title: 'Medusa Sweatshirt',
    handle: 'sweatshirt',
    description: 'A warm crew-neck sweatshirt in heavyweight fleece.',
    category: 'Sweatshirts',
    collection: 'latest-drops',
    images: [
      { file: 'seed-sweatshirt-vintage-front.png', kind: 'sweatshirt', colour: [180, 140, 100] },
      { file: 'seed-sweatshirt-vintage-back.png', kind: 'sweatshirt', colour: [180, 140, 100], back: true },
    ],
    options: [{ title: 'Size', values: SIZES }],
    prices: { eur: 1000, usd: 1500 },
  },
  {
    title: 'Medusa Sweatpants',
    handle: 'sweatpants',
    description: 'Relaxed sweatpants with an elastic waist and tapered legs.',
    category: 'Pants',
    collection: 'weekly-picks',
    images: [
      { file: 'seed-sweatpants-gray-front.png', kind: 'pants', colour: [120, 124, 130] },
      { file: 'seed-sweatpants-gray-back.png', kind: 'pants', colour: [120, 124, 130], back: true },
    ],
    options: [{ title: 'Size', values: SIZES }],
    prices: { eur: 1000, usd: 1500 },
  },
  {
    title: 'Medusa Shorts',
    handle: 'shorts',
    description: 'Lightweight shorts for warm days.',
    category: 'Merch',
    collection: 'weekly-picks',
    images: [
      { file: 'seed-shorts-vintage-front.png', kind: 'shorts', colour: [180, 140, 100] },
      { file: 'seed-shorts-vintage-back.png', kind: 'shorts', colour: [180, 140, 100], back: true },
    ],
    options: [{ title: 'Size', values: SIZES }],
    prices: { eur: 1000, usd: 1500 },
  },
];

/** Stock of every seeded variant. */
export const STOCK = 100;
