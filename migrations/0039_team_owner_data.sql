-- Shops from before roles had admins only: the oldest live admin becomes the owner, so someone
-- can still manage owners and reach routes open to owners alone.
UPDATE "users" SET "role" = 'owner'
WHERE "id" = (SELECT "id" FROM "users" WHERE "role" = 'admin' AND "deleted_at" IS NULL ORDER BY "created_at", "id" LIMIT 1)
  AND NOT EXISTS (SELECT 1 FROM "users" WHERE "role" = 'owner' AND "deleted_at" IS NULL);
