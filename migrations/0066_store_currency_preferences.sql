-- A store currency's `is_tax_inclusive` is its currency's price preference now, as in Medusa
-- (the store's own copy was never read by pricing). The currencies the store marked inclusive get
-- that preference where none is written, so their prices read as the operator set them; a
-- preference already there wins.
INSERT INTO price_preferences (id, attribute, value, is_tax_inclusive, created_at, updated_at)
  SELECT 'prpref_store_' || lower(c->>'currency_code'), 'currency_code', lower(c->>'currency_code'), true,
         s.updated_at, s.updated_at
  FROM stores s, jsonb_array_elements(s.supported_currencies) AS c
  WHERE (c->>'is_tax_inclusive')::boolean
  ON CONFLICT DO NOTHING;
