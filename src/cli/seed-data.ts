/**
 * What `emporium seed` creates: the catalog of Medusa's starter seed, re-authored (a region
 * Europe in EUR, standard and express shipping, apparel with sizes and colours). Amounts are
 * minor units (the database's), whatever AMOUNT_UNITS says.
 */

export const REGION = { name: 'Europe', currency_code: 'eur', countries: ['gb', 'de', 'dk', 'se', 'fr', 'es', 'it'] };

export const SHIPPING = [
  { name: 'Standard Shipping', amount: 1000 },
  { name: 'Express Shipping', amount: 1500 },
];

/** Active, public categories (handle: the lower-cased name); each product sits in one. */
export const CATEGORIES = ['Shirts', 'Sweatshirts', 'Pants', 'Merch'];

const IMAGE_BASE = 'https://medusa-public-images.s3.eu-west-1.amazonaws.com';

export interface SeedProduct {
  title: string;
  handle: string;
  description: string;
  category: (typeof CATEGORIES)[number];
  /** Ordered gallery; the first is also the thumbnail. */
  images: string[];
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
    images: ['tee-black-front.png', 'tee-black-back.png', 'tee-white-front.png', 'tee-white-back.png'].map(
      (f) => `${IMAGE_BASE}/${f}`,
    ),
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
    images: ['sweatshirt-vintage-front.png', 'sweatshirt-vintage-back.png'].map((f) => `${IMAGE_BASE}/${f}`),
    options: [{ title: 'Size', values: SIZES }],
    prices: { eur: 1000, usd: 1500 },
  },
  {
    title: 'Medusa Sweatpants',
    handle: 'sweatpants',
    description: 'Relaxed sweatpants with an elastic waist and tapered legs.',
    category: 'Pants',
    images: ['sweatpants-gray-front.png', 'sweatpants-gray-back.png'].map((f) => `${IMAGE_BASE}/${f}`),
    options: [{ title: 'Size', values: SIZES }],
    prices: { eur: 1000, usd: 1500 },
  },
  {
    title: 'Medusa Shorts',
    handle: 'shorts',
    description: 'Lightweight shorts for warm days.',
    category: 'Merch',
    images: ['shorts-vintage-front.png', 'shorts-vintage-back.png'].map((f) => `${IMAGE_BASE}/${f}`),
    options: [{ title: 'Size', values: SIZES }],
    prices: { eur: 1000, usd: 1500 },
  },
];

/** Stock of every seeded variant. */
export const STOCK = 100;
