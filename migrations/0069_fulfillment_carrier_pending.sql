-- A fulfilment is recorded before its carrier is asked, outside the order lock, and completed after:
-- carrier_pending marks it while the carrier has not answered (orders/fulfillment-actions.ts).
ALTER TABLE "fulfillments" ADD COLUMN "carrier_pending" text;