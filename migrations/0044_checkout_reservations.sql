-- Checkout reserves stock at a location instead of taking it off the shelf: stocked_quantity
-- only drops when a fulfilment ships it. The location is chosen inside the database, after the
-- item's levels are locked, so two shoppers never both see the same last unit free (choosing
-- first and locking after is how a store sells fewer than it has, or oversells).
--
-- Which locations serve a sales channel: its linked locations (in the channel's rank order); a
-- channel linked to none is served by every live location (the default one first), so a shop
-- that never set locations up keeps selling.
CREATE FUNCTION inventory_channel_locations(channel text)
RETURNS TABLE(location_id text, rank integer) LANGUAGE sql STABLE AS $$
  SELECT l.stock_location_id, l.rank
  FROM sales_channel_stock_locations l
  JOIN stock_locations s ON s.id = l.stock_location_id AND s.deleted_at IS NULL
  WHERE l.sales_channel_id = channel
  UNION ALL
  SELECT s.id, CASE WHEN s.id = (SELECT d.location_id FROM inventory_defaults d) THEN 0 ELSE 1 END
  FROM stock_locations s
  WHERE s.deleted_at IS NULL
    AND NOT EXISTS (
      SELECT 1 FROM sales_channel_stock_locations l
      JOIN stock_locations x ON x.id = l.stock_location_id AND x.deleted_at IS NULL
      WHERE l.sales_channel_id = channel)
$$;
--> statement-breakpoint
-- Reserves `quantity` units of a variant for the channel: per item (quantity * required_quantity),
-- from the channel's locations in the order the setting `inventory.allocation` asks for
-- (`location_order`, the default: the channel's rank; `most_available`: the fullest first),
-- spilling over to the next location when one cannot serve it all. Locks first, in the order every
-- stock writer uses: the variants selling the items (id order), then each item's levels (location
-- order). Raises SQLSTATE EI001 when the stock is short and the variant allows no backorder; a
-- backorder puts the rest on the first location. A variant with no item left keeps the old rule:
-- its own number is decremented. Answers the reservations to record, one per item and location.
CREATE FUNCTION inventory_reserve(variant text, quantity integer, channel text, at timestamptz)
RETURNS TABLE(r_item text, r_location text, r_quantity integer, r_backorder boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  backorder boolean;
  strategy text := coalesce((SELECT value FROM settings WHERE key = 'inventory.allocation'), 'location_order');
  link record;
  lv record;
  need integer;
  take integer;
  first_level text;
  first_location text;
  items text[] := '{}';
  locations text[] := '{}';
  quantities integer[] := '{}';
BEGIN
  PERFORM 1 FROM product_variants WHERE id IN (
      SELECT l2.variant_id FROM product_variant_inventory_items l1
      JOIN product_variant_inventory_items l2 ON l2.inventory_item_id = l1.inventory_item_id
      WHERE l1.variant_id = variant
      UNION SELECT variant)
    ORDER BY id FOR UPDATE;
  SELECT v.allow_backorder INTO backorder FROM product_variants v
    WHERE v.id = variant AND v.manage_inventory AND v.deleted_at IS NULL;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM product_variant_inventory_items l
      JOIN inventory_items i ON i.id = l.inventory_item_id AND i.deleted_at IS NULL WHERE l.variant_id = variant) THEN
    UPDATE product_variants SET inventory_quantity = inventory_quantity - quantity, updated_at = at
      WHERE id = variant AND (allow_backorder OR inventory_quantity >= quantity);
    IF NOT FOUND THEN
      RAISE EXCEPTION 'insufficient_inventory' USING ERRCODE = 'EI001';
    END IF;
    RETURN;
  END IF;
  FOR link IN SELECT l.inventory_item_id AS item, l.required_quantity AS required
      FROM product_variant_inventory_items l
      JOIN inventory_items i ON i.id = l.inventory_item_id AND i.deleted_at IS NULL
      WHERE l.variant_id = variant ORDER BY l.inventory_item_id LOOP
    PERFORM 1 FROM inventory_levels WHERE inventory_item_id = link.item ORDER BY location_id FOR UPDATE;
    need := quantity * link.required;
    first_level := NULL;
    first_location := NULL;
    FOR lv IN SELECT v.id, v.location_id, greatest(v.stocked_quantity - v.reserved_quantity, 0) AS available
        FROM inventory_levels v
        JOIN inventory_channel_locations(channel) c ON c.location_id = v.location_id
        WHERE v.inventory_item_id = link.item
        ORDER BY CASE WHEN strategy = 'most_available' THEN v.reserved_quantity - v.stocked_quantity END,
          c.rank, v.location_id LOOP
      first_level := coalesce(first_level, lv.id);
      first_location := coalesce(first_location, lv.location_id);
      EXIT WHEN need = 0;
      take := least(need, lv.available);
      IF take > 0 THEN
        UPDATE inventory_levels SET reserved_quantity = reserved_quantity + take, updated_at = at WHERE id = lv.id;
        items := items || link.item;
        locations := locations || lv.location_id;
        quantities := quantities || take;
        need := need - take;
      END IF;
    END LOOP;
    IF need > 0 THEN
      IF NOT backorder THEN
        RAISE EXCEPTION 'insufficient_inventory' USING ERRCODE = 'EI001';
      END IF;
      IF first_level IS NULL THEN
        -- A backorder where the channel's locations keep none of the item: a level at the first.
        SELECT c.location_id INTO first_location FROM inventory_channel_locations(channel) c
          ORDER BY c.rank, c.location_id LIMIT 1;
        IF first_location IS NULL THEN
          RAISE EXCEPTION 'insufficient_inventory' USING ERRCODE = 'EI001';
        END IF;
        first_level := inventory_new_id('ilev');
        INSERT INTO inventory_levels (id, inventory_item_id, location_id, created_at, updated_at)
          VALUES (first_level, link.item, first_location, at, at);
      END IF;
      UPDATE inventory_levels SET reserved_quantity = reserved_quantity + need, updated_at = at WHERE id = first_level;
      items := items || link.item;
      locations := locations || first_location;
      quantities := quantities || need;
    END IF;
  END LOOP;
  RETURN QUERY SELECT u.item, u.location, sum(u.q)::int, backorder
    FROM unnest(items, locations, quantities) AS u(item, location, q) GROUP BY u.item, u.location;
END
$$;
