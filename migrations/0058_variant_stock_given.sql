-- A writer of many new variants at once (a CSV import's batch, products/bulk-create.ts) makes
-- their items, levels and links in three statements for the whole set
-- (inventory/new-variant-stock.ts) and says so for its variants' INSERT with the transaction-local
-- setting emporium.variant_stock = 'given': the per-row trigger then leaves those rows alone.
-- Every other insert of a variant is as before.
CREATE OR REPLACE FUNCTION inventory_variant_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('emporium.variant_stock', true) = 'given' THEN
    RETURN NEW;
  END IF;
  IF NEW.manage_inventory AND NEW.deleted_at IS NULL THEN
    PERFORM inventory_give_variant_item(NEW.id, NEW.sku, NEW.title, NEW.inventory_quantity, NEW.created_at);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- The same writer's levels and links of those new variants: each variant already holds the
-- quantity its new level holds, so there is nothing to recompute for them.
CREATE OR REPLACE FUNCTION inventory_levels_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() = 1 AND current_setting('emporium.variant_stock', true) IS DISTINCT FROM 'given' THEN
    PERFORM inventory_refresh_item_variants(CASE WHEN TG_OP = 'DELETE' THEN OLD.inventory_item_id ELSE NEW.inventory_item_id END, NULL);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION inventory_links_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  variant text := CASE WHEN TG_OP = 'DELETE' THEN OLD.variant_id ELSE NEW.variant_id END;
BEGIN
  IF pg_trigger_depth() = 1 AND current_setting('emporium.variant_stock', true) IS DISTINCT FROM 'given' THEN
    -- A variant left without items keeps its last number (it is no longer stock-kept here).
    UPDATE product_variants SET inventory_quantity = inventory_variant_quantity(id)
    WHERE id = variant AND inventory_variant_quantity(id) IS NOT NULL
      AND inventory_quantity IS DISTINCT FROM inventory_variant_quantity(id);
  END IF;
  RETURN NULL;
END
$$;
