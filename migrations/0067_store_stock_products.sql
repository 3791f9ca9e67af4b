-- Stock moves with every order, and each move used to empty every kept store answer that shows
-- stock (store_listing_split told it apart from listing changes only). A stock move now names the
-- products whose stock moved: the NOTIFY's payload is `s <product id> <product id> …` (at most 200,
-- else `s`, any product), and an instance lets go only of the answers holding one of them
-- (products/store-cache.ts). The same payload is raised as the NOTICE `emporium_store_stock …`,
-- so an instance on PostgreSQL knows which products its own writes moved before their answer goes
-- (catalog-leases.ts); a statement that moved nothing the store shows raises it with nothing after.
CREATE FUNCTION store_stock_moved(products text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  payload text := 's';
BEGIN
  IF products IS NOT NULL AND cardinality(products) = 0 THEN
    RAISE NOTICE 'emporium_store_stock';
    RETURN;
  END IF;
  IF products IS NOT NULL AND cardinality(products) <= 200 THEN
    payload := 's ' || array_to_string(products, ' ');
    IF length(payload) > 7900 THEN
      payload := 's';
    END IF;
  END IF;
  PERFORM pg_notify('emporium_store_catalog', payload);
  RAISE NOTICE 'emporium_store_stock %', payload;
END
$$;
--> statement-breakpoint
-- The products whose stock a change of these items' levels moves: the variants linked to them.
CREATE FUNCTION store_items_products(items text[]) RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN cardinality(items) > 200 THEN NULL ELSE array(
    SELECT DISTINCT v.product_id FROM product_variant_inventory_items l
    JOIN product_variants v ON v.id = l.variant_id
    WHERE l.inventory_item_id = ANY(items)) END;
$$;
--> statement-breakpoint
CREATE FUNCTION store_levels_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM store_stock_moved(store_items_products(array(SELECT DISTINCT inventory_item_id FROM new_rows LIMIT 201)));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM store_stock_moved(store_items_products(array(SELECT DISTINCT inventory_item_id FROM old_rows LIMIT 201)));
  ELSE
    PERFORM store_stock_moved(store_items_products(array(
      SELECT inventory_item_id FROM new_rows UNION SELECT inventory_item_id FROM old_rows LIMIT 201)));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Items, links, locations and which channels they serve: rare writes that may move any product.
CREATE OR REPLACE FUNCTION store_stock_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM store_stock_moved(NULL);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER store_catalog_changed ON inventory_levels;
--> statement-breakpoint
CREATE TRIGGER store_levels_inserted AFTER INSERT ON inventory_levels
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION store_levels_moved();
--> statement-breakpoint
CREATE TRIGGER store_levels_updated AFTER UPDATE ON inventory_levels
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION store_levels_moved();
--> statement-breakpoint
CREATE TRIGGER store_levels_deleted AFTER DELETE ON inventory_levels
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION store_levels_moved();
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER TRUNCATE ON inventory_levels
  FOR EACH STATEMENT EXECUTE FUNCTION store_stock_changed();
--> statement-breakpoint
-- As in store_listing_split, a stock-only update of variants now names their products.
CREATE OR REPLACE FUNCTION store_variants_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE to_jsonb(o) - 'inventory_quantity' - 'updated_at' IS DISTINCT FROM to_jsonb(n) - 'inventory_quantity' - 'updated_at')
    OR (SELECT count(*) FROM old_rows) <> (SELECT count(*) FROM old_rows o JOIN new_rows n ON n.id = o.id) THEN
    PERFORM pg_notify('emporium_store_catalog', '');
    RAISE NOTICE 'emporium_store_listing changed';
  ELSE
    PERFORM store_stock_moved(CASE WHEN (SELECT count(*) FROM (SELECT 1 FROM new_rows LIMIT 201) x) > 200 THEN NULL
      ELSE array(SELECT DISTINCT product_id FROM new_rows) END);
  END IF;
  RETURN NULL;
END
$$;
