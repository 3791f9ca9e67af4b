-- Keeps order_counts and order_buckets (orders/count-tables.ts) exact in the transaction of
-- every order write, whoever writes it (checkout, the desk, drafts, edits, a restore).
-- Row-level: an order write is one row, and an update that moves none of the counted columns
-- changes nothing here. When an update moves an order from one counter row to another, the two
-- rows are touched in key order, so concurrent writers lock them alike. The slot (a hash of the
-- id) only spreads concurrent writers over rows: readers sum every slot, so sums stay exact
-- even where another server hashes differently.
CREATE FUNCTION order_counts_add(d boolean, st text, ps text, fs text, reg text, sc text, sl smallint, n integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO order_counts AS c (is_draft_order, status, payment_status, fulfillment_status, region_id, sales_channel_id, slot, orders)
  VALUES (d, st, ps, fs, reg, sc, sl, n)
  ON CONFLICT (is_draft_order, status, payment_status, fulfillment_status, region_id, sales_channel_id, slot)
  DO UPDATE SET orders = c.orders + excluded.orders;
$$;
--> statement-breakpoint
CREATE FUNCTION order_buckets_add(b timestamptz, cur text, sl smallint, sold integer, revenue bigint, placed integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO order_buckets AS o (bucket, currency_code, slot, sold, revenue, placed) VALUES (b, cur, sl, sold, revenue, placed)
  ON CONFLICT (bucket, currency_code, slot)
  DO UPDATE SET sold = o.sold + excluded.sold, revenue = o.revenue + excluded.revenue, placed = o.placed + excluded.placed;
$$;
--> statement-breakpoint
-- The quarter hour (UTC) an order counts in.
CREATE FUNCTION order_bucket(at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT date_bin('15 minutes', at, timestamptz '2000-01-01 00:00:00+00');
$$;
--> statement-breakpoint
CREATE FUNCTION orders_counters() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sl smallint := (hashtext(coalesce(new.id, old.id)) & 7)::smallint;
  had boolean := TG_OP <> 'INSERT';
  has boolean := TG_OP <> 'DELETE';
  ok text[];
  nk text[];
  ob timestamptz;
  nb timestamptz;
  -- What the order adds to its bucket, before and after: sold, revenue, placed.
  o_sold integer := 0;
  o_rev bigint := 0;
  o_placed integer := 0;
  n_sold integer := 0;
  n_rev bigint := 0;
  n_placed integer := 0;
BEGIN
  IF had THEN
    ok := ARRAY[old.is_draft_order::text, old.status, old.payment_status, old.fulfillment_status, old.region_id, coalesce(old.sales_channel_id, '')];
    ob := order_bucket(old.created_at);
    o_sold := (old.status <> 'canceled')::int;
    o_rev := o_sold * old.total;
    o_placed := (NOT old.is_draft_order)::int;
  END IF;
  IF has THEN
    nk := ARRAY[new.is_draft_order::text, new.status, new.payment_status, new.fulfillment_status, new.region_id, coalesce(new.sales_channel_id, '')];
    nb := order_bucket(new.created_at);
    n_sold := (new.status <> 'canceled')::int;
    n_rev := n_sold * new.total;
    n_placed := (NOT new.is_draft_order)::int;
  END IF;

  -- order_counts: out of the old row, into the new one, lower key first.
  IF had AND has AND ok = nk THEN
    NULL;
  ELSIF had AND has AND ok > nk THEN
    PERFORM order_counts_add(new.is_draft_order, new.status, new.payment_status, new.fulfillment_status, new.region_id, nk[6], sl, 1);
    PERFORM order_counts_add(old.is_draft_order, old.status, old.payment_status, old.fulfillment_status, old.region_id, ok[6], sl, -1);
  ELSE
    IF had THEN
      PERFORM order_counts_add(old.is_draft_order, old.status, old.payment_status, old.fulfillment_status, old.region_id, ok[6], sl, -1);
    END IF;
    IF has THEN
      PERFORM order_counts_add(new.is_draft_order, new.status, new.payment_status, new.fulfillment_status, new.region_id, nk[6], sl, 1);
    END IF;
  END IF;

  -- order_buckets: the difference in one row, or out of one and into another, lower key first.
  IF had AND has AND ob = nb AND old.currency_code = new.currency_code THEN
    IF (n_sold, n_rev, n_placed) <> (o_sold, o_rev, o_placed) THEN
      PERFORM order_buckets_add(nb, new.currency_code, sl, n_sold - o_sold, n_rev - o_rev, n_placed - o_placed);
    END IF;
  ELSIF had AND has AND (ob, old.currency_code) > (nb, new.currency_code) THEN
    PERFORM order_buckets_add(nb, new.currency_code, sl, n_sold, n_rev, n_placed);
    PERFORM order_buckets_add(ob, old.currency_code, sl, -o_sold, -o_rev, -o_placed);
  ELSE
    IF had THEN
      PERFORM order_buckets_add(ob, old.currency_code, sl, -o_sold, -o_rev, -o_placed);
    END IF;
    IF has THEN
      PERFORM order_buckets_add(nb, new.currency_code, sl, n_sold, n_rev, n_placed);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER orders_counters AFTER INSERT OR DELETE OR UPDATE OF
  is_draft_order, status, payment_status, fulfillment_status, region_id, sales_channel_id, currency_code, total, created_at
  ON orders FOR EACH ROW EXECUTE FUNCTION orders_counters();
--> statement-breakpoint
INSERT INTO order_counts (is_draft_order, status, payment_status, fulfillment_status, region_id, sales_channel_id, slot, orders)
SELECT is_draft_order, status, payment_status, fulfillment_status, region_id, coalesce(sales_channel_id, ''),
       (hashtext(id) & 7)::smallint, count(*)::int
  FROM orders GROUP BY 1, 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
INSERT INTO order_buckets (bucket, currency_code, slot, sold, revenue, placed)
SELECT order_bucket(created_at), currency_code, (hashtext(id) & 7)::smallint,
       count(*) FILTER (WHERE status <> 'canceled')::int,
       coalesce(sum(total) FILTER (WHERE status <> 'canceled'), 0)::bigint,
       count(*) FILTER (WHERE NOT is_draft_order)::int
  FROM orders GROUP BY 1, 2, 3;
