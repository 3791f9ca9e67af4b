CREATE FUNCTION "marketplace_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'marketplace_log_entries is append-only';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "marketplace_log_entries_append_only" BEFORE UPDATE OR DELETE ON "marketplace_log_entries"
  FOR EACH ROW EXECUTE FUNCTION "marketplace_log_append_only"();
--> statement-breakpoint
INSERT INTO "marketplace_log_entries" ("leaf_index", "version_id", "marketplace_id", "version", "sha256", "key_id", "logged_at")
  SELECT (row_number() OVER (ORDER BY coalesce(v."reviewed_at", v."published_at"), v."id") - 1)::int,
         v."id", i."marketplace_id", v."version", v."sha256", v."key_id", coalesce(v."reviewed_at", v."published_at")
  FROM "marketplace_versions" v JOIN "marketplace_items" i ON i."id" = v."item_id"
  WHERE v."status" IN ('approved', 'revoked');
