-- Stock moves from one number per variant to inventory items with levels per location, while
-- every existing reader and writer of product_variants.inventory_quantity keeps working: that
-- column becomes what the variant can sell over all locations (the minimum over its items of
-- floor(sum(stocked - reserved) / required_quantity)), kept by the triggers below.
--   * A level or a link written directly (depth 1) refreshes the variants of its item.
--   * A variant's inventory_quantity written directly (the checkout's decrement, a cancelled
--     order's restock, an admin's edit) is applied to its items' levels as a delta, and the
--     column is then recomputed from them.
--   * A new stock-managed variant gets an item of its own, linked with required_quantity 1, and
--     a level at the default location holding the quantity it was created with.
-- Triggers rather than service code because the products, checkout and orders modules write
-- that column; pg_trigger_depth() keeps the two directions from feeding each other.

-- Medusa-style id with a ULID body (time first, so ids sort by creation like the app's).
CREATE FUNCTION inventory_new_id(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  body text := '';
BEGIN
  FOR i IN 1..10 LOOP
    body := substr(alphabet, (ms % 32)::int + 1, 1) || body;
    ms := ms / 32;
  END LOOP;
  FOR i IN 1..16 LOOP
    body := body || substr(alphabet, floor(random() * 32)::int + 1, 1);
  END LOOP;
  RETURN prefix || '_' || body;
END
$$;
--> statement-breakpoint
-- The default location; a shop without one gets "Default location", serving every live channel.
CREATE FUNCTION inventory_default_location(at timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  loc text;
BEGIN
  SELECT d.location_id INTO loc FROM inventory_defaults d
    JOIN stock_locations s ON s.id = d.location_id AND s.deleted_at IS NULL;
  IF loc IS NOT NULL THEN
    RETURN loc;
  END IF;
  -- Two first variants at once must not make two default locations.
  PERFORM pg_advisory_xact_lock(hashtext('inventory_default_location'));
  SELECT id INTO loc FROM stock_locations WHERE deleted_at IS NULL ORDER BY created_at, id LIMIT 1;
  IF loc IS NULL THEN
    loc := inventory_new_id('sloc');
    INSERT INTO stock_locations (id, name, created_at, updated_at) VALUES (loc, 'Default location', at, at);
    INSERT INTO sales_channel_stock_locations (sales_channel_id, stock_location_id, rank, created_at)
      SELECT id, loc, 0, at FROM sales_channels WHERE deleted_at IS NULL ORDER BY id
      ON CONFLICT DO NOTHING;
  END IF;
  INSERT INTO inventory_defaults (singleton, location_id) VALUES (true, loc)
    ON CONFLICT (singleton) DO UPDATE SET location_id = excluded.location_id;
  RETURN loc;
END
$$;
--> statement-breakpoint
-- What a variant can sell over all locations; null when it has no live item.
CREATE FUNCTION inventory_variant_quantity(variant text) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT min(floor(coalesce(s.available, 0)::numeric / l.required_quantity))::int
  FROM product_variant_inventory_items l
  JOIN inventory_items i ON i.id = l.inventory_item_id AND i.deleted_at IS NULL
  LEFT JOIN LATERAL (
    SELECT sum(v.stocked_quantity - v.reserved_quantity) AS available
    FROM inventory_levels v WHERE v.inventory_item_id = l.inventory_item_id
  ) s ON true
  WHERE l.variant_id = variant
$$;
--> statement-breakpoint
-- Every variant selling this item, recomputed (runs the variant trigger at depth > 1: no delta).
CREATE FUNCTION inventory_refresh_item_variants(item text, except_variant text) RETURNS void LANGUAGE sql AS $$
  UPDATE product_variants v SET inventory_quantity = coalesce(inventory_variant_quantity(v.id), 0)
  WHERE v.id IN (SELECT l.variant_id FROM product_variant_inventory_items l WHERE l.inventory_item_id = item)
    AND v.id IS DISTINCT FROM except_variant
    AND v.inventory_quantity IS DISTINCT FROM coalesce(inventory_variant_quantity(v.id), 0)
$$;
--> statement-breakpoint
CREATE FUNCTION inventory_give_variant_item(variant text, variant_sku text, variant_title text, quantity integer, at timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  item text := inventory_new_id('iitem');
BEGIN
  INSERT INTO inventory_items (id, sku, title, requires_shipping, created_at, updated_at)
  VALUES (item,
    CASE WHEN NOT EXISTS (SELECT 1 FROM inventory_items WHERE sku = variant_sku AND deleted_at IS NULL) THEN variant_sku END,
    variant_title, true, at, at);
  INSERT INTO inventory_levels (id, inventory_item_id, location_id, stocked_quantity, created_at, updated_at)
  VALUES (inventory_new_id('ilev'), item, inventory_default_location(at), quantity, at, at);
  INSERT INTO product_variant_inventory_items (id, variant_id, inventory_item_id, required_quantity, created_at, updated_at)
  VALUES (inventory_new_id('pvitem'), variant, item, 1, at, at);
END
$$;
--> statement-breakpoint
-- A variant's stock moved by `delta` units: each item moves delta * required_quantity. A decrement
-- takes from the levels with the most available first (levels locked in location order, as every
-- writer does); an increment goes to the default location's level, else the first level, else a
-- new level at the default location.
CREATE FUNCTION inventory_apply_variant_delta(variant text, delta integer, at timestamptz) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  link record;
  lv record;
  need integer;
  take integer;
  target text;
BEGIN
  FOR link IN SELECT l.inventory_item_id AS item, l.required_quantity AS required
      FROM product_variant_inventory_items l
      JOIN inventory_items i ON i.id = l.inventory_item_id AND i.deleted_at IS NULL
      WHERE l.variant_id = variant ORDER BY l.inventory_item_id LOOP
    PERFORM 1 FROM inventory_levels WHERE inventory_item_id = link.item ORDER BY location_id FOR UPDATE;
    IF delta < 0 THEN
      need := -delta * link.required;
      FOR lv IN SELECT id, greatest(stocked_quantity - reserved_quantity, 0) AS available FROM inventory_levels
          WHERE inventory_item_id = link.item ORDER BY stocked_quantity - reserved_quantity DESC, location_id LOOP
        EXIT WHEN need = 0;
        take := least(need, lv.available);
        IF take > 0 THEN
          UPDATE inventory_levels SET stocked_quantity = stocked_quantity - take, updated_at = at WHERE id = lv.id;
          need := need - take;
        END IF;
      END LOOP;
      IF need = 0 THEN
        CONTINUE;
      END IF;
      -- A backorder beyond what every level has: the default (or first) level goes below zero.
      delta := -need;
      need := 1;
    ELSE
      need := link.required;
    END IF;
    SELECT id INTO target FROM inventory_levels WHERE inventory_item_id = link.item
      ORDER BY location_id = (SELECT location_id FROM inventory_defaults) DESC, location_id LIMIT 1;
    IF target IS NULL THEN
      INSERT INTO inventory_levels (id, inventory_item_id, location_id, stocked_quantity, created_at, updated_at)
      VALUES (inventory_new_id('ilev'), link.item, inventory_default_location(at), delta * need, at, at);
    ELSE
      UPDATE inventory_levels SET stocked_quantity = stocked_quantity + delta * need, updated_at = at WHERE id = target;
    END IF;
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE FUNCTION inventory_variant_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.manage_inventory AND NEW.deleted_at IS NULL THEN
    PERFORM inventory_give_variant_item(NEW.id, NEW.sku, NEW.title, NEW.inventory_quantity, NEW.created_at);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER inventory_variant_insert BEFORE INSERT ON product_variants
  FOR EACH ROW EXECUTE FUNCTION inventory_variant_insert();
--> statement-breakpoint
CREATE FUNCTION inventory_variant_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  linked boolean;
  link record;
BEGIN
  IF pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  linked := EXISTS (SELECT 1 FROM product_variant_inventory_items WHERE variant_id = NEW.id);
  IF NOT linked THEN
    -- Stock management switched on: the variant gets its item as a new one would.
    IF NEW.manage_inventory AND NOT OLD.manage_inventory AND NEW.deleted_at IS NULL THEN
      PERFORM inventory_give_variant_item(NEW.id, NEW.sku, NEW.title, NEW.inventory_quantity, NEW.updated_at);
    END IF;
    RETURN NEW;
  END IF;
  IF NEW.inventory_quantity IS NOT DISTINCT FROM OLD.inventory_quantity THEN
    RETURN NEW;
  END IF;
  PERFORM inventory_apply_variant_delta(NEW.id, NEW.inventory_quantity - OLD.inventory_quantity, NEW.updated_at);
  NEW.inventory_quantity := coalesce(inventory_variant_quantity(NEW.id), NEW.inventory_quantity);
  -- Kits sharing an item with this variant follow.
  FOR link IN SELECT inventory_item_id FROM product_variant_inventory_items WHERE variant_id = NEW.id ORDER BY 1 LOOP
    PERFORM inventory_refresh_item_variants(link.inventory_item_id, NEW.id);
  END LOOP;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER inventory_variant_update BEFORE UPDATE OF inventory_quantity, manage_inventory ON product_variants
  FOR EACH ROW EXECUTE FUNCTION inventory_variant_update();
--> statement-breakpoint
CREATE FUNCTION inventory_levels_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() = 1 THEN
    PERFORM inventory_refresh_item_variants(CASE WHEN TG_OP = 'DELETE' THEN OLD.inventory_item_id ELSE NEW.inventory_item_id END, NULL);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER inventory_levels_changed AFTER INSERT OR UPDATE OR DELETE ON inventory_levels
  FOR EACH ROW EXECUTE FUNCTION inventory_levels_changed();
--> statement-breakpoint
CREATE FUNCTION inventory_links_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  variant text := CASE WHEN TG_OP = 'DELETE' THEN OLD.variant_id ELSE NEW.variant_id END;
BEGIN
  IF pg_trigger_depth() = 1 THEN
    -- A variant left without items keeps its last number (it is no longer stock-kept here).
    UPDATE product_variants SET inventory_quantity = inventory_variant_quantity(id)
    WHERE id = variant AND inventory_variant_quantity(id) IS NOT NULL
      AND inventory_quantity IS DISTINCT FROM inventory_variant_quantity(id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER inventory_links_changed AFTER INSERT OR UPDATE OR DELETE ON product_variant_inventory_items
  FOR EACH ROW EXECUTE FUNCTION inventory_links_changed();
--> statement-breakpoint
-- An item deleted (soft) no longer counts for the variants that sold it.
CREATE FUNCTION inventory_items_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() = 1 AND NEW.deleted_at IS DISTINCT FROM OLD.deleted_at THEN
    PERFORM inventory_refresh_item_variants(NEW.id, NULL);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER inventory_items_changed AFTER UPDATE OF deleted_at ON inventory_items
  FOR EACH ROW EXECUTE FUNCTION inventory_items_changed();
--> statement-breakpoint
-- Existing shops: a default location serving every channel, and an item and a level holding
-- each stock-managed variant's current stock.
SELECT inventory_default_location(now())
WHERE EXISTS (SELECT 1 FROM sales_channels WHERE deleted_at IS NULL)
   OR EXISTS (SELECT 1 FROM product_variants WHERE manage_inventory AND deleted_at IS NULL);
--> statement-breakpoint
SELECT inventory_give_variant_item(id, sku, title, inventory_quantity, now())
FROM (SELECT id, sku, title, inventory_quantity FROM product_variants
      WHERE manage_inventory AND deleted_at IS NULL ORDER BY id) v;
