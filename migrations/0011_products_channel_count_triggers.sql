-- Keeps product_channel_counts exact: per sales channel, the number of linked products that are
-- published and not deleted (what the storefront may list). Triggers rather than service code,
-- because other modules write product_sales_channels too (channel batch links, channel delete).
-- Statement-level with transition tables: a bulk insert of 10k links bumps each channel once,
-- where a row trigger would update the same counter row 10k times in one transaction.
-- Counter rows are always touched in channel order, so concurrent writers lock them alike.
CREATE FUNCTION product_channel_counts_bump(channel text, delta integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO product_channel_counts AS c (sales_channel_id, visible_products) VALUES (channel, delta)
  ON CONFLICT (sales_channel_id) DO UPDATE SET visible_products = c.visible_products + excluded.visible_products;
$$;
--> statement-breakpoint
-- Each statement names only the transition tables its event has (an INSERT has no old_links).
CREATE FUNCTION product_links_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM product_channel_counts_bump(x.sales_channel_id, -x.n) FROM (
      SELECT l.sales_channel_id, count(*)::int AS n FROM old_links l
      JOIN products p ON p.id = l.product_id AND p.status = 'published' AND p.deleted_at IS NULL
      GROUP BY l.sales_channel_id ORDER BY l.sales_channel_id
    ) x;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM product_channel_counts_bump(x.sales_channel_id, x.n) FROM (
      SELECT l.sales_channel_id, count(*)::int AS n FROM new_links l
      JOIN products p ON p.id = l.product_id AND p.status = 'published' AND p.deleted_at IS NULL
      GROUP BY l.sales_channel_id ORDER BY l.sales_channel_id
    ) x;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER product_links_count_insert AFTER INSERT ON product_sales_channels
  REFERENCING NEW TABLE AS new_links FOR EACH STATEMENT EXECUTE FUNCTION product_links_count();
--> statement-breakpoint
CREATE TRIGGER product_links_count_update AFTER UPDATE ON product_sales_channels
  REFERENCING OLD TABLE AS old_links NEW TABLE AS new_links FOR EACH STATEMENT EXECUTE FUNCTION product_links_count();
--> statement-breakpoint
CREATE TRIGGER product_links_count_delete AFTER DELETE ON product_sales_channels
  REFERENCING OLD TABLE AS old_links FOR EACH STATEMENT EXECUTE FUNCTION product_links_count();
--> statement-breakpoint
-- A product entering or leaving the store moves every channel it is linked to.
CREATE FUNCTION products_channel_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM product_channel_counts_bump(x.sales_channel_id, x.n) FROM (
      SELECT l.sales_channel_id, sum(CASE WHEN n.status = 'published' AND n.deleted_at IS NULL THEN 1 ELSE -1 END)::int AS n
      FROM new_products n JOIN old_products o ON o.id = n.id
      JOIN product_sales_channels l ON l.product_id = n.id
      WHERE (n.status = 'published' AND n.deleted_at IS NULL) <> (o.status = 'published' AND o.deleted_at IS NULL)
      GROUP BY l.sales_channel_id HAVING sum(CASE WHEN n.status = 'published' AND n.deleted_at IS NULL THEN 1 ELSE -1 END) <> 0
      ORDER BY l.sales_channel_id
    ) x;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM product_channel_counts_bump(x.sales_channel_id, x.n) FROM (
      SELECT l.sales_channel_id, count(*)::int AS n FROM new_products n
      JOIN product_sales_channels l ON l.product_id = n.id
      WHERE n.status = 'published' AND n.deleted_at IS NULL
      GROUP BY l.sales_channel_id ORDER BY l.sales_channel_id
    ) x;
  ELSE
    PERFORM product_channel_counts_bump(x.sales_channel_id, -x.n) FROM (
      SELECT l.sales_channel_id, count(*)::int AS n FROM old_products o
      JOIN product_sales_channels l ON l.product_id = o.id
      WHERE o.status = 'published' AND o.deleted_at IS NULL
      GROUP BY l.sales_channel_id ORDER BY l.sales_channel_id
    ) x;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER products_channel_count_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION products_channel_count();
--> statement-breakpoint
CREATE TRIGGER products_channel_count_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_products NEW TABLE AS new_products FOR EACH STATEMENT EXECUTE FUNCTION products_channel_count();
--> statement-breakpoint
CREATE TRIGGER products_channel_count_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS old_products FOR EACH STATEMENT EXECUTE FUNCTION products_channel_count();
--> statement-breakpoint
INSERT INTO product_channel_counts (sales_channel_id, visible_products)
SELECT l.sales_channel_id, count(*)::int
FROM product_sales_channels l JOIN products p ON p.id = l.product_id
WHERE p.status = 'published' AND p.deleted_at IS NULL
GROUP BY l.sales_channel_id;
