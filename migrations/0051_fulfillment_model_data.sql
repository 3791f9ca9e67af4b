-- The fulfilment model (location → fulfilment set → service zone → shipping option) over the
-- spec's flat options of a region, so existing shops keep working: the default shipping profile
-- exists, and every region's options move into a zone of that region, in a "Default shipping"
-- set of the default location, with their amount as the region's price.

INSERT INTO shipping_profiles (id, name, type, created_at, updated_at)
VALUES ('sp_default', 'Default Shipping Profile', 'default', now(), now())
ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
-- The zone a region's flat options live in: made on first use (its set too), with the region's
-- countries as its geo zones. It serves every cart of the region (fulfillment/zone-match.ts).
CREATE FUNCTION fulfillment_region_zone(region text, at timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  zone text;
  loc text;
  fset text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('fulfillment_region_zone'));
  SELECT z.id INTO zone FROM service_zones z
    JOIN fulfillment_sets s ON s.id = z.fulfillment_set_id AND s.deleted_at IS NULL
    WHERE z.region_id = region AND z.deleted_at IS NULL ORDER BY z.id LIMIT 1;
  IF zone IS NOT NULL THEN
    RETURN zone;
  END IF;
  loc := inventory_default_location(at);
  SELECT s.id INTO fset FROM fulfillment_sets s
    WHERE s.location_id = loc AND s.type = 'shipping' AND s.deleted_at IS NULL ORDER BY s.created_at, s.id LIMIT 1;
  IF fset IS NULL THEN
    fset := inventory_new_id('fuset');
    INSERT INTO fulfillment_sets (id, name, type, location_id, created_at, updated_at)
      VALUES (fset, 'Default shipping', 'shipping', loc, at, at);
  END IF;
  zone := inventory_new_id('serzo');
  INSERT INTO service_zones (id, name, fulfillment_set_id, region_id, created_at, updated_at)
    SELECT zone, coalesce(r.name, region), fset, region, at, at FROM (SELECT 1) one
    LEFT JOIN regions r ON r.id = region;
  INSERT INTO geo_zones (id, service_zone_id, type, country_code, created_at, updated_at)
    SELECT inventory_new_id('fgz'), zone, 'country', lower(c.iso_2), at, at
    FROM region_countries c WHERE c.region_id = region;
  RETURN zone;
END
$$;
--> statement-breakpoint
UPDATE shipping_options o SET service_zone_id = fulfillment_region_zone(o.region_id, now())
WHERE o.region_id IS NOT NULL AND o.service_zone_id IS NULL AND o.deleted_at IS NULL;
--> statement-breakpoint
INSERT INTO shipping_option_prices (id, shipping_option_id, region_id, currency_code, amount, created_at, updated_at)
SELECT inventory_new_id('sopr'), o.id, o.region_id, r.currency_code, o.amount, o.created_at, o.updated_at
FROM shipping_options o LEFT JOIN regions r ON r.id = o.region_id
WHERE o.region_id IS NOT NULL AND o.amount IS NOT NULL;
