-- Wakes every instance's dispatcher when events commit (NOTIFY is delivered at commit, never on
-- rollback, and repeats within one transaction collapse into one). A statement trigger does it
-- inside the INSERT, instead of a second round trip from emit() per event.
CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('emporium_outbox', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();
