-- The return a label attempt was asked for: an attempt no retry of that return can take over any
-- more is swept and canceled at its carrier (returns/label-attempts.ts).
ALTER TABLE "return_label_attempts" ADD COLUMN "return_id" text;