import { sql, type SQL } from 'drizzle-orm';
import type { regions } from './tables.ts';

/**
 * A live region with its countries as one JSON value (null when absent or deleted), for
 * statements that read a region beside something else, such as the store's cart, in one round
 * trip. `regionFromJson` (service.ts) turns it into the Region that getRegion answers.
 */
export const regionJson = (regionId: SQL) => sql`(select json_build_object('region', to_json(r), 'countries',
    (select coalesce(json_agg(rc.iso_2 order by rc.iso_2), '[]'::json) from region_countries rc where rc.region_id = r.id))
  from regions r where r.id = ${regionId} and r.deleted_at is null)`;

export interface RegionJson {
  /** The row as JSON: timestamps arrive as text. */
  region: typeof regions.$inferSelect;
  countries: string[];
}
