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

const SIZE = { title: 'Size', values: ['S', 'M', 'L', 'XL'] };
/** Every seeded variant costs the same, as in Medusa's starter. */
const PRICES = { eur: 1000, usd: 1500 };

/** A garment photographed from the front, then from the back (`seed-<stem>-front.png`, `…-back.png`). */
function frontAndBack(stem: string, kind: Garment, colour: SeedImage['colour']): SeedImage[] {
  return [
    { file: `seed-${stem}-front.png`, kind, colour },
    { file: `seed-${stem}-back.png`, kind, colour, back: true },
  ];
}

export const PRODUCTS: SeedProduct[] = [
  {
    title: 'Medusa T-Shirt',
    handle: 't-shirt',
    description: 'A soft cotton tee for everyday wear, cut for a relaxed fit.',
    category: 'Shirts',
    collection: 'latest-drops',
    images: [...frontAndBack('tee-black', 'tee', [31, 41, 55]), ...frontAndBack('tee-white', 'tee', [200, 203, 208])],
    options: [SIZE, { title: 'Color', values: ['Black', 'White'] }],
    prices: PRICES,
  },
  {
    title: 'Medusa Sweatshirt',
    handle: 'sweatshirt',
    description: 'A warm crew-neck sweatshirt in heavyweight fleece.',
    category: 'Sweatshirts',
    collection: 'latest-drops',
    images: frontAndBack('sweatshirt-vintage', 'sweatshirt', [180, 140, 100]),
    options: [SIZE],
    prices: PRICES,
  },
  {
    title: 'Medusa Sweatpants',
    handle: 'sweatpants',
    description: 'Relaxed sweatpants with an elastic waist and tapered legs.',
    category: 'Pants',
    collection: 'weekly-picks',
    images: frontAndBack('sweatpants-gray', 'pants', [120, 124, 130]),
    options: [SIZE],
    prices: PRICES,
  },
  {
    title: 'Medusa Shorts',
    handle: 'shorts',
    description: 'Lightweight shorts for warm days.',
    category: 'Merch',
    collection: 'weekly-picks',
    images: frontAndBack('shorts-vintage', 'shorts', [180, 140, 100]),
    options: [SIZE],
    prices: PRICES,
  },
];

/** Stock of every seeded variant. */
export const STOCK = 100;
