import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import type { PriceListContext } from '../price-lists/store-prices.ts';
import { readStoreDocuments, readStoreListIds, type StoreFilters, type StoreRows } from './store-queries.ts';

/**
 * Products per statement of a large store page (one of more than SLICED_ABOVE). PGlite runs a statement on the Node thread, and
 * any driver parses its rows there; rendering a 1,000-product page (about 5 MB of JSON) and
 * joining it took another 50–150 ms. Slices of 50 still held the loop ~150 ms of CPU a turn
 * with two large pages running (PGlite: one at a time, STORE_HEAVY_CONCURRENCY); 20 keeps a turn
 * well under 100 ms. A page above this size is read as its ids first (one index
 * walk, as before), then its documents in slices, each rendered to bytes before the next is
 * read, the event loop turning between two (setImmediate), so /health and checkouts get in.
 */
export const SLICE = 20;
/** Pages up to this size are read in one statement (the storefront's default page of 50 among them). */
export const SLICED_ABOVE = 50;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface SlicedPage {
  /** The page's total, region check and currency (products empty). */
  head: StoreRows;
  /** The products' JSON, comma-separated, as bytes: join with Buffer.concat. */
  parts: Buffer[];
  /** The page's product ids (some may have dropped out of `parts` meanwhile). */
  ids: string[];
}

/**
 * The page of `readStoreList`, read and rendered in slices. Not one snapshot: a product changed
 * between two slices shows its newer document, and one unpublished or taken out of the key's
 * channels meanwhile drops out of the page: every document shown is whole and visible.
 */
export async function readSlicedStoreList(
  db: Executor,
  f: StoreFilters,
  page: Page,
  regionId: string | undefined,
  render: (slice: StoreRows) => string[],
  lists?: PriceListContext,
): Promise<SlicedPage> {
  const head = await readStoreListIds(db, f, page, regionId);
  const ids = head.products.map((p) => p.product_id);
  const parts: Buffer[] = [];
  for (let i = 0; i < ids.length; i += SLICE) {
    await turn();
    const slice = render(await readStoreDocuments(db, ids.slice(i, i + SLICE), f.channelIds, regionId, lists));
    if (slice.length) parts.push(Buffer.from(`${parts.length ? ',' : ''}${slice.join(',')}`));
  }
  await turn();
  return { head: { ...head, products: [] }, parts, ids };
}
