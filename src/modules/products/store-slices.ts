import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { readStoreDocuments, readStoreListIds, type StoreFilters, type StoreRows } from './store-queries.ts';

/**
 * Products per statement of a large store page. PGlite runs a statement on the Node thread, and
 * any driver parses its rows there: one statement for a 1,000-product page held the event loop
 * for hundreds of milliseconds, so /health and checkouts waited behind a sitemap crawl. A page
 * above this size is read as its ids first (one index walk, as before), then its documents in
 * slices, the event loop turning between two (setImmediate), so other requests get in.
 */
export const SLICE = 50;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The page of `readStoreList`, read in slices. Not one snapshot: a product changed between two
 * slices shows its newer document, and one unpublished or taken out of the key's channels meanwhile
 * drops out of the page: every document shown is whole and visible.
 */
export async function readSlicedStoreList(
  db: Executor,
  f: StoreFilters,
  page: Page,
  regionId?: string,
): Promise<StoreRows> {
  const head = await readStoreListIds(db, f, page, regionId);
  // Rows of the ids statement carry the id only (their document columns are absent).
  const ids = (head.products as unknown as { product_id: string }[]).map((p) => p.product_id);
  const products: StoreRows['products'] = [];
  for (let i = 0; i < ids.length; i += SLICE) {
    await turn();
    const slice = await readStoreDocuments(db, ids.slice(i, i + SLICE), f.channelIds, regionId);
    products.push(...slice.products);
  }
  return { ...head, products };
}
