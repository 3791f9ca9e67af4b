-- Dispatched events are deleted after OUTBOX_RETENTION_DAYS (platform/events/outbox-retention.ts),
-- oldest first, in batches: each batch is a range of this index, however large the outbox. Pending
-- rows are not in it (they have outbox_pending_idx).
CREATE INDEX "outbox_dispatched_idx" ON "outbox" USING btree ("dispatched_at") WHERE dispatched_at is not null;
