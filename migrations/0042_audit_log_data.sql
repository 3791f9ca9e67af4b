-- The audit log is append-only: no statement may change a row, and only the retention job, which
-- says so for its own transaction (set_config('emporium.audit_retention', 'on', true)), deletes
-- (the tests' reset truncates the same way). No plugin role holds any right on the tables.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'TRUNCATE') AND current_setting('emporium.audit_retention', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% rows cannot be %', TG_TABLE_NAME, lower(TG_OP) || 'd' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_changes_append_only BEFORE UPDATE OR DELETE ON audit_changes
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_changes_no_truncate BEFORE TRUNCATE ON audit_changes
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
REVOKE ALL ON audit_log, audit_changes FROM PUBLIC;
--> statement-breakpoint
-- Before/after of the watched columns (TG_ARGV), only inside an audited admin write: that
-- transaction sets emporium.audit_id (local); anywhere else the trigger reads one setting and returns.
CREATE FUNCTION audit_capture() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  entry text := current_setting('emporium.audit_id', true);
  old_row jsonb;
  new_row jsonb;
  col text;
BEGIN
  IF entry IS NULL OR entry = '' THEN RETURN NULL; END IF;
  IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
  FOREACH col IN ARRAY TG_ARGV LOOP
    IF (old_row -> col) IS DISTINCT FROM (new_row -> col) THEN
      INSERT INTO audit_changes (audit_id, table_name, row_id, column_name, before, after)
      VALUES (entry, TG_TABLE_NAME, coalesce(new_row, old_row) ->> 'id', col, old_row -> col, new_row -> col);
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER prices_audit AFTER INSERT OR DELETE OR UPDATE OF amount ON prices
  FOR EACH ROW EXECUTE FUNCTION audit_capture('amount', 'currency_code');
--> statement-breakpoint
CREATE TRIGGER inventory_levels_audit AFTER INSERT OR UPDATE OF stocked_quantity ON inventory_levels
  FOR EACH ROW EXECUTE FUNCTION audit_capture('stocked_quantity');
--> statement-breakpoint
CREATE TRIGGER orders_audit AFTER UPDATE OF status, payment_status, fulfillment_status ON orders
  FOR EACH ROW EXECUTE FUNCTION audit_capture('status', 'payment_status', 'fulfillment_status');
--> statement-breakpoint
CREATE TRIGGER products_audit AFTER UPDATE OF status ON products
  FOR EACH ROW EXECUTE FUNCTION audit_capture('status');
--> statement-breakpoint
CREATE TRIGGER roles_audit AFTER INSERT OR UPDATE OF permissions ON roles
  FOR EACH ROW EXECUTE FUNCTION audit_capture('permissions');
--> statement-breakpoint
CREATE TRIGGER users_audit AFTER UPDATE OF role ON users
  FOR EACH ROW EXECUTE FUNCTION audit_capture('role');
