-- A page of one sales channel's store list: product ids in order, walked along store_listing's
-- primary key and stopping at the limit. Without statistics (PGlite has no autovacuum; a fresh
-- catalog has none until the statistics pass) the planner estimates a handful of rows and may
-- rather sort the whole channel; the settings below leave it the index walk only, whatever the
-- statistics say. A function with SET is never inlined, so they apply to this query alone.
CREATE FUNCTION store_listing_page(channel text, lim bigint, skip bigint) RETURNS TABLE (product_id text)
LANGUAGE sql STABLE ROWS 20
SET enable_sort = off SET enable_bitmapscan = off SET enable_seqscan = off
AS $$
  SELECT l.product_id FROM store_listing l WHERE l.sales_channel_id = channel
  ORDER BY l.product_id LIMIT lim OFFSET skip
$$;
